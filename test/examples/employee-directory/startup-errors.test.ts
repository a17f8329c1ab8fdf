import test from 'ava';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { connect } from '../../../examples/employee-directory/db/connection.ts';
import { DatabaseUrlError } from '../../../examples/employee-directory/db/database-url.ts';
import { sqliteFileUrl } from '../../support/child-server.ts';
import { PRODUCTION_SERVER_ENV, SERVER_NODE_FLAGS } from '../../../scripts/server-node-flags.ts';

/**
 * `npm start` failing for something its starter can fix: one line on stderr
 * saying what to change, exit code 1, no stack. The server is a real process
 * here, as `npm start` runs it; the CLI's config opens the same database.
 */

const run = promisify(execFile);
const SERVER = resolve('examples/employee-directory/server.ts');
const FORMS = 'use postgres://user:password@host:5432/name, mysql://user:password@host:3306/name, sqlite:/absolute/path.db or :memory:';

interface Ended {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `command` to its end, resolving to its exit code and output either way. */
async function ended(args: string[], env: Record<string, string>): Promise<Ended> {
  try {
    const { stdout, stderr } = await run(process.execPath, args, { env: { ...process.env, SEED: '0', ...PRODUCTION_SERVER_ENV, NO_COLOR: '1', ...env }, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, stdout, stderr };
  }
}

/**
 * Node's arguments in `npm start`'s command (`node <flags> --import tsx <server>`),
 * so these tests run the server exactly as it does, its flags included.
 */
function startArguments(): string[] {
  const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start;
  const [node, ...args] = start.split(/\s+/);
  if (node !== 'node' || args.at(-1) !== 'examples/employee-directory/server.ts') throw new Error(`npm start is not \`node … examples/employee-directory/server.ts\`: ${start}`);
  return [...args.slice(0, -1), SERVER];
}

const startServer = (env: Record<string, string>) => ended(startArguments(), env);

test("npm start runs the server with the Node flags a Mural server runs with", (t) => {
  const args = startArguments();
  for (const flag of SERVER_NODE_FLAGS) t.true(args.includes(flag), `npm start passes ${flag}`);
  t.deepEqual(args.slice(-3), ['--import', 'tsx', SERVER]);
});

/** A port something else listens on, for as long as the test lasts. */
async function takenPort(t: { teardown(fn: () => void): void }): Promise<number> {
  const holder: Server = createServer();
  await new Promise<void>((done) => holder.listen(0, '0.0.0.0', done));
  t.teardown(() => holder.close());
  return (holder.address() as { port: number }).port;
}

/** A port nothing listens on: one just given up. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as { port: number };
  await new Promise((done) => probe.close(done));
  return port;
}

test('a port in use: which one, and how to pick another', async (t) => {
  const port = await takenPort(t);
  const result = await startServer({ PORT: String(port), DATABASE_URL: sqliteFileUrl() });
  t.is(result.code, 1);
  t.is(result.stderr, `Port ${port} is in use; set PORT to another port (PORT=${port + 1} npm start).\n`);
  t.is(result.stdout, '');
});

test('a port in use with several workers: the primary says so once, rather than restarting workers that cannot listen', async (t) => {
  const port = await takenPort(t);
  const result = await startServer({ PORT: String(port), DATABASE_URL: sqliteFileUrl(), MURAL_WORKERS: '2' });
  t.is(result.code, 1);
  t.regex(result.stderr, new RegExp(`Port ${port} is in use; set PORT to another port \\(PORT=${port + 1} npm start\\)\\.\\n$`));
  t.notRegex(result.stderr, /worker \d+ exited|\n {4}at /, 'no worker was started, and no stack printed');
});

test('in production, a missing or short MURAL_TOKEN_SECRET: what to set, before anything else', async (t) => {
  const missing = await startServer({ PORT: '0', DATABASE_URL: sqliteFileUrl(), MURAL_TOKEN_SECRET: '' });
  t.is(missing.code, 1);
  t.is(missing.stderr, 'MURAL_TOKEN_SECRET is not set: in production, set it to a random key of at least 32 characters (openssl rand -base64 48).\n');
  const short = await startServer({ PORT: '0', DATABASE_URL: sqliteFileUrl(), MURAL_TOKEN_SECRET: 'hunter2' });
  t.is(short.code, 1);
  t.is(short.stderr, 'MURAL_TOKEN_SECRET is too short: give it at least 32 characters (openssl rand -base64 48).\n');
});

test('a DATABASE_URL that is no URL, or names a database the directory does not run on', async (t) => {
  const garbage = await startServer({ PORT: '0', DATABASE_URL: 'localhost/directory' });
  t.is(garbage.code, 1);
  t.is(garbage.stderr, `DATABASE_URL is not a database URL: "localhost/directory"; ${FORMS}\n`);
  const unknown = await startServer({ PORT: '0', DATABASE_URL: 'mongodb://localhost/directory' });
  t.is(unknown.code, 1);
  t.is(unknown.stderr, `DATABASE_URL names an unknown database "mongodb"; ${FORMS}\n`);
});

test('a DATABASE_URL nothing answers at: the URL, its password hidden, and what the driver said', async (t) => {
  const port = await closedPort();
  const result = await startServer({ PORT: '0', DATABASE_URL: `postgres://directory:secret@127.0.0.1:${port}/directory` });
  t.is(result.code, 1);
  t.is(
    result.stderr,
    `Cannot connect to DATABASE_URL postgres://directory:***@127.0.0.1:${port}/directory: nothing answers there (connect ECONNREFUSED 127.0.0.1:${port}); is the database running?\n`,
  );
});

test('the CLI, on the example\'s config, says the same of DATABASE_URL', async (t) => {
  const port = await closedPort();
  const mural = (url: string) => ended([resolve('bin/mural.js'), 'query', 'employees', '--config', 'examples/employee-directory/mural.config.ts'], { DATABASE_URL: url });
  const garbage = await mural('localhost/directory');
  t.is(garbage.code, 2);
  t.is(garbage.stderr, `Could not load the Resources: DATABASE_URL is not a database URL: "localhost/directory"; ${FORMS}\n`);
  const down = await mural(`mysql://root@127.0.0.1:${port}/directory`);
  t.is(down.code, 2);
  t.regex(down.stderr, new RegExp(`^Could not load the Resources: Cannot connect to DATABASE_URL mysql://root@127\\.0\\.0\\.1:${port}/directory: nothing answers there \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\); is the database running\\?\\n$`));
});

test('connect() refuses a bad DATABASE_URL as a DatabaseUrlError, before any connection', (t) => {
  t.throws(() => connect('localhost/directory'), { instanceOf: DatabaseUrlError, message: /^DATABASE_URL is not a database URL/ });
  t.throws(() => connect('postgres:///directory'), { instanceOf: DatabaseUrlError, message: /^DATABASE_URL names no host: "postgres:\/\/\/directory"/ });
  t.throws(() => connect('sqlite:/dev/null/directory.db'), { instanceOf: DatabaseUrlError, message: /^DATABASE_URL sqlite:\/dev\/null\/directory\.db cannot be used: EEXIST/ });
});
