import test from 'ava';
import { QueryTypes, Sequelize } from 'sequelize';
import { configureSqlite, SQLITE_DEFAULTS } from '../../../../plugins/sequelize/index.ts';
import { sqliteState } from '../../../../plugins/sequelize/sqlite/settings.ts';
import { connectionManager } from '../../../../plugins/sequelize/sqlite/connections.ts';
import { createApp } from '../../../../examples/employee-directory/app.ts';
import { seed } from '../../../../examples/employee-directory/db/seed.ts';
import { openDirectory, tableCounts, type Directory } from '../../../support/directory.ts';
import { serve, type HttpClient, type HttpResponse } from '../../../support/http.ts';
import { holdWriteLock, rawConnection, sqliteFileDatabase } from '../../../support/sqlite-file.ts';
import { dropTransactionWarnings } from '../../../support/sequelize-warnings.ts';

// these tests make BEGIN and COMMIT fail on purpose; Sequelize's warnings about it are expected
dropTransactionWarnings();

type ErrorDoc = { errors: Array<{ status: string; code: string; detail: string }> };
type Doc = { data: { id: string; attributes: Record<string, unknown> } };

async function eventually(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const patchAge = (client: HttpClient, age: number) =>
  client.request('PATCH', '/api/v1/employees/5', { data: { type: 'employees', id: '5', attributes: { age } } });
const hire = (client: HttpClient, name: string) =>
  client.request('POST', '/api/v1/employees', {
    data: {
      type: 'employees',
      attributes: { first_name: name, last_name: 'Hire' },
      relationships: { positions: { data: [{ type: 'positions', 'temp-id': 'p', method: 'create' }] } },
    },
    included: [{ type: 'positions', 'temp-id': 'p', attributes: { title: 'Engineer' } }],
  });

/** SQLite's one writer, on a database file: writes queue, reads go on, a write that cannot get the file is a clean 503. */
const file = sqliteFileDatabase();
let dir: Directory;
let client: HttpClient;
test.before(async () => {
  dir = await openDirectory(file, 'sqlite_writes', 10);
  client = await serve(dir.app);
});
test.after.always(async () => {
  await client?.close();
  await dir?.sequelize.close();
  file.remove();
});
test.afterEach.always(() => configureSqlite(dir.sequelize, SQLITE_DEFAULTS));

test.serial('the file is switched to WAL, and every connection, a write\'s too, waits busyTimeout for a lock', async (t) => {
  configureSqlite(dir.sequelize, { busyTimeout: 4321 });
  t.is(await client.get('/api/v1/departments').then((response) => response.status), 200);
  const [mode] = await dir.sequelize.query<{ journal_mode: string }>('PRAGMA journal_mode', { type: QueryTypes.SELECT });
  t.is(mode!.journal_mode, 'wal');
  const [outside] = await dir.sequelize.query<{ timeout: number }>('PRAGMA busy_timeout', { type: QueryTypes.SELECT });
  t.is(outside!.timeout, 4321);
  const adapter = dir.resources.EmployeeResource.adapterInstance();
  const [inWrite] = await adapter.transaction((transaction) => dir.sequelize.query<{ timeout: number }>('PRAGMA busy_timeout', { type: QueryTypes.SELECT, transaction: transaction as never }));
  t.is(inWrite!.timeout, 4321);
});

test.serial('reads keep answering while writes queue behind a held write lock; released, every write answers 200', async (t) => {
  configureSqlite(dir.sequelize, { busyTimeout: 60_000, writeQueueTimeout: 60_000 });
  const before = (await dir.models.Employee.findByPk(5))!.age;
  const release = await holdWriteLock(file.path);
  const ages = Array.from({ length: 20 }, (_, i) => 200 + i);
  let answeredWrites = 0;
  const writes = ages.map((age) => patchAge(client, age).finally(() => void answeredWrites++));
  try {
    // one write waits in BEGIN for the lock, the others in the queue
    await eventually(() => sqliteState(dir.sequelize).queue.length === ages.length - 1, 'the writes to queue');
    const reads = await Promise.all([client.get('/api/v1/departments'), client.get('/api/v1/employees/5'), client.get('/api/v1/employees?stats[total]=count')]);
    t.deepEqual(reads.map((response) => response.status), [200, 200, 200]);
    t.is((reads[1]!.body as Doc).data.attributes.age, before, 'no queued write is visible yet');
    t.is(answeredWrites, 0);
  } finally {
    await release();
  }
  const answers = await Promise.all(writes);
  t.deepEqual(answers.map((response) => response.status), ages.map(() => 200));
  t.true(ages.includes((await dir.models.Employee.findByPk(5))!.age!));
});

test.serial('a write that cannot get the database within the bounds answers 503 with Retry-After, and nothing of it is written', async (t) => {
  // one write waits 100 ms in BEGIN, one 100 ms in the queue, the third finds the queue full
  configureSqlite(dir.sequelize, { busyTimeout: 100, writeQueueTimeout: 100, writeQueueLength: 1, retryAfter: 2 });
  const before = await tableCounts(dir.models);
  const release = await holdWriteLock(file.path);
  let answers: HttpResponse[];
  try {
    answers = await Promise.all(['Busy', 'Queued', 'Refused'].map((name) => hire(client, name)));
    t.deepEqual(await tableCounts(dir.models), before, 'nothing was written');
  } finally {
    await release();
  }
  for (const answer of answers) {
    t.is(answer.status, 503);
    t.is(answer.headers.get('retry-after'), '2');
    t.regex(answer.contentType ?? '', /^application\/vnd\.api\+json/);
    t.like((answer.body as ErrorDoc).errors[0], { status: '503', code: 'database_busy' });
  }
  t.deepEqual(
    answers.map((answer) => (answer.body as ErrorDoc).errors[0]!.detail).sort(),
    [
      'The database is busy with other writes: the queue of 1 waiting writes is full. Nothing was written; try again shortly.',
      'The database is busy with other writes: this write waited 100 ms for its turn. Nothing was written; try again shortly.',
      'The database is locked by another writer. Nothing was written; try again shortly.',
    ],
  );
  t.deepEqual(await tableCounts(dir.models), before);
  t.deepEqual(Object.keys(connectionManager(dir.sequelize).connections), ['default'], 'no connection is left behind');
  t.is((await hire(client, 'Later')).status, 201, 'the lock released, writes go through again');
});

test.serial('a write inside a write (a hook saving another Resource) joins it instead of waiting for it', async (t) => {
  configureSqlite(dir.sequelize, { writeQueueTimeout: 200 });
  const { DepartmentResource } = dir.resources;
  let failCommit = false;
  class AuditedDepartment extends DepartmentResource {
    static {
      this.type = 'departments';
      this.afterSave(async (model: { name: string }) => {
        if (!(await DepartmentResource.build({ data: { type: 'departments', attributes: { name: `${model.name} (audit)` } } }).save())) throw new Error('audit');
      });
      this.beforeCommit(() => {
        if (failCommit) throw new Error('refused at commit');
      });
    }
  }
  t.true(await AuditedDepartment.build({ data: { type: 'departments', attributes: { name: 'Nested' } } }).save());
  t.is(await dir.models.Department.count({ where: { name: ['Nested', 'Nested (audit)'] } }), 2);
  failCommit = true;
  await t.throwsAsync(AuditedDepartment.build({ data: { type: 'departments', attributes: { name: 'Undone' } } }).save(), { message: 'refused at commit' });
  t.is(await dir.models.Department.count({ where: { name: ['Undone', 'Undone (audit)'] } }), 0, 'the outer write rolled back the inner one too');
});

/**
 * The cause of the hang in finding 2: in rollback-journal mode a COMMIT waits
 * for readers, and when it gave up (SQLITE_BUSY) Sequelize left that
 * connection open inside its transaction, holding the lock for good.
 */
test.serial('without WAL, a COMMIT that readers hold off past the busy timeout is a 503 that rolls back and frees the database', async (t) => {
  const journal = sqliteFileDatabase();
  const sequelize = new Sequelize({ dialect: 'sqlite', storage: journal.path, logging: false });
  configureSqlite(sequelize, { wal: false, busyTimeout: 200 });
  const { app, models } = createApp(sequelize);
  await sequelize.sync();
  await seed(models, { employees: 10 });
  const journalClient = await serve(app);
  t.teardown(async () => {
    await journalClient.close();
    await sequelize.close();
    journal.remove();
  });
  const [mode] = await sequelize.query<{ journal_mode: string }>('PRAGMA journal_mode', { type: QueryTypes.SELECT });
  t.is(mode!.journal_mode, 'delete');
  const before = (await models.Employee.findByPk(5))!.age;

  const reader = await rawConnection(journal.path);
  await reader.run('BEGIN');
  await reader.all('SELECT * FROM employees');
  let refused: HttpResponse;
  try {
    refused = await patchAge(journalClient, 77);
  } finally {
    await reader.run('COMMIT');
    await reader.close();
  }
  t.is(refused.status, 503);
  t.like((refused.body as ErrorDoc).errors[0], { code: 'database_busy' });
  t.deepEqual(Object.keys(connectionManager(sequelize).connections), ['default'], 'the failed connection was closed');
  const read = await journalClient.get('/api/v1/employees/5');
  t.is(read.status, 200);
  t.is((read.body as Doc).data.attributes.age, before, 'the refused write left nothing');
  const retried = await patchAge(journalClient, 78);
  t.is(retried.status, 200);
  t.is((await models.Employee.findByPk(5))!.age, 78);
});

test('settings are checked', (t) => {
  const sequelize = new Sequelize({ dialect: 'sqlite', storage: ':memory:', logging: false });
  t.throws(() => configureSqlite(sequelize, { writeQueueTimeout: -1 }), { message: /writeQueueTimeout must be a whole number/ });
  t.throws(() => configureSqlite(sequelize, { busyTimeout: 1.5 }), { message: /busyTimeout must be a whole number/ });
  t.throws(() => configureSqlite(sequelize, { writeQueueLength: Number.NaN }), { message: /writeQueueLength/ });
  t.throws(() => configureSqlite(sequelize, { wal: 'yes' as never }), { message: /wal must be true or false/ });
  t.throws(() => configureSqlite(sequelize, { writeQueueTimout: 5 } as never), { message: /unknown setting writeQueueTimout; known: writeQueueTimeout, / });
  t.deepEqual(sqliteState(sequelize).settings, { ...SQLITE_DEFAULTS }, 'a refused setting changes nothing');
});
