import test from 'ava';
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { promisify } from 'node:util';
import { createApp } from '../../../examples/employee-directory/app.ts';
import { seed } from '../../../examples/employee-directory/db/seed.ts';
import { workerCount } from '../../../examples/employee-directory/workers.ts';
import { eventually, spawnDirectoryServer, sqliteFileUrl, urlOf, type ChildServer } from '../../support/child-server.ts';
import { openDatabase, testDatabases } from '../../support/databases.ts';

const run = promisify(execFile);

interface Answer {
  status: number;
  etag: string | undefined;
  body: { data?: Array<{ id: string }>; links?: { next?: string | null }; errors?: Array<{ code: string; source?: unknown }> };
}

/** A GET on a connection of its own: behind `node:cluster`, successive connections go to successive workers. */
function getFresh(baseUrl: string, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${path}`, { agent: false, headers: { accept: 'application/vnd.api+json' } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => void (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, etag: res.headers.etag, body: JSON.parse(text) as Answer['body'] }));
    });
    req.on('error', reject);
    req.end();
  });
}

const FIRST_PAGE = '/api/v1/employees?sort=-age&page[size]=3&page[after]=';

/** The example's database, made and seeded here: PostgreSQL when set (workers are for a server database), else a SQLite file. */
async function directoryDatabase(key: string): Promise<string> {
  const server = testDatabases(key).find((db) => db.name === 'postgres');
  const url = server ? '' : sqliteFileUrl();
  const sequelize = server ? await openDatabase(server) : await openDatabase({ name: 'sqlite', url });
  const { models } = createApp(sequelize);
  await sequelize.sync();
  await seed(models, { employees: 20 });
  const location = server ? urlOf(server, sequelize) : url;
  await sequelize.close();
  return location;
}

test('MURAL_WORKERS: a whole number from 1 to 64, or auto; anything else is refused', (t) => {
  t.is(workerCount(undefined), 1);
  t.is(workerCount('3'), 3);
  t.true(workerCount('auto') >= 1);
  for (const bad of ['0', '-1', '1.5', '65', 'two']) t.throws(() => workerCount(bad), { message: /MURAL_WORKERS must be/ }, bad);
});

/**
 * Nothing a response depends on lives in one process: a cursor sealed by one
 * process opens in another that shares the secret, and the same request
 * gets the same body and ETag from either. A process with a secret of its
 * own (a random one, when none is set) refuses the cursor with a 400.
 */
test('two processes with one cursor secret accept each other\'s cursors and ETags; a process with its own secret answers 400', async (t) => {
  const database = await directoryDatabase('workers_stateless');
  const env = { MURAL_CURSOR_SECRET: 'one secret for the whole deployment' };
  const servers: ChildServer[] = await Promise.all([
    spawnDirectoryServer(database, env), spawnDirectoryServer(database, env), spawnDirectoryServer(database, { MURAL_CURSOR_SECRET: '' }),
  ]);
  try {
    const [a, b, own] = servers;
    const first = await getFresh(a!.baseUrl, FIRST_PAGE);
    const next = first.body.links!.next!;
    const [fromA, fromB] = [await getFresh(a!.baseUrl, next), await getFresh(b!.baseUrl, next)];
    t.is(fromB.status, 200);
    t.deepEqual(fromB.body, fromA.body);
    t.is(fromB.etag, fromA.etag, 'ETags derive from the body, in any process');
    t.notDeepEqual(fromB.body.data!.map((r) => r.id), first.body.data!.map((r) => r.id));
    const refused = await getFresh(own!.baseUrl, next);
    t.is(refused.status, 400);
    t.is(refused.body.errors![0]!.code, 'invalid_cursor');
    t.deepEqual(refused.body.errors![0]!.source, { parameter: 'page[after]' });
  } finally {
    for (const server of servers) server.child.kill('SIGTERM');
    await Promise.all(servers.map((s) => s.exited));
  }
});

test('MURAL_WORKERS=2: workers share the port and one cursor secret, a killed worker is replaced, so is every worker killed at once (on the port PORT=0 picked), SIGTERM stops them all with 0', async (t) => {
  t.timeout(180_000);
  const database = await directoryDatabase('workers_cluster');
  // PORT=0: the port the first worker got is every later worker's, even one listening after every listening one died
  const server = await spawnDirectoryServer(database, { MURAL_WORKERS: '2', MURAL_CURSOR_SECRET: '', PORT: '0' });
  const workers = async () => (await run('ps', ['--ppid', String(server.child.pid), '-o', 'pid=']).catch(() => ({ stdout: '' }))).stdout.split('\n').map(Number).filter(Boolean);
  try {
    t.regex(server.output(), /\(2 workers\)/);
    await eventually(async () => (await workers()).length === 2, 60_000, 'two workers').catch((error: Error) => t.fail(`${error.message}: ${JSON.stringify(server.output())} ${server.child.pid}`));
    // each request on a new connection: the workers take turns, and none of them made the cursor secret
    const next = (await getFresh(server.baseUrl, FIRST_PAGE)).body.links!.next!;
    const pages = [];
    for (let i = 0; i < 6; i++) pages.push(await getFresh(server.baseUrl, next));
    t.deepEqual(pages.map((p) => p.status), [200, 200, 200, 200, 200, 200], server.output());
    t.is(new Set(pages.map((p) => p.etag)).size, 1);

    const [victim] = await workers();
    process.kill(victim!, 'SIGKILL');
    await eventually(async () => (await workers()).length === 2 && !(await workers()).includes(victim!), 60_000, 'a replacement worker');
    t.regex(server.output(), new RegExp(`worker ${victim} exited \\(SIGKILL\\); starting another`));
    // the victim may have been the one worker listening yet (the other still starting, under load): the primary
    // then has no listener until another worker listens, and connections are refused for that moment
    let last = '';
    const answering = async () => {
      const answer = await getFresh(server.baseUrl, '/health').catch((error: Error) => ({ status: 0, body: error.message }));
      last = `${answer.status} ${JSON.stringify(answer.body)}`;
      return answer.status === 200;
    };
    await eventually(answering, 60_000, 'a worker answering again').catch((error: Error) => {
      throw new Error(`${error.message}; last answer: ${last}; workers: ${victim} killed; output: ${server.output()}`);
    });
    for (let i = 0; i < 4; i++) t.is((await getFresh(server.baseUrl, '/health')).status, 200);

    // every worker at once: the port PORT=0 picked closes with the last of them, and their replacements listen on it again
    const everyone = await workers();
    for (const pid of everyone) process.kill(pid, 'SIGKILL');
    await eventually(async () => (await workers()).length === 2 && !(await workers()).some((pid) => everyone.includes(pid)), 60_000, 'two replacement workers');
    await eventually(answering, 60_000, 'the replacements answering on the same port').catch((error: Error) => {
      throw new Error(`${error.message}; last answer: ${last}; output: ${server.output()}`);
    });

    const survivors = await workers();
    server.child.kill('SIGTERM');
    t.deepEqual(await server.exited, { code: 0, signal: null }, server.output());
    for (const pid of survivors) t.throws(() => process.kill(pid, 0), undefined, `worker ${pid} is gone`);
  } finally {
    server.child.kill('SIGKILL');
  }
});
