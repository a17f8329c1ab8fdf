import test from 'ava';
import { configureSqlite, SQLITE_DEFAULTS } from '../../../../plugins/sequelize/index.ts';
import { connectionManager, type SqliteConnection } from '../../../../plugins/sequelize/sqlite/connections.ts';
import { openDirectory, tableCounts } from '../../../support/directory.ts';
import { directoryServer } from '../../../support/directory-server.ts';
import { holdWriteLock, rawConnection, sqliteFileDatabase } from '../../../support/sqlite-file.ts';
import { dropTransactionWarnings } from '../../../support/sequelize-warnings.ts';

// these tests make BEGIN and COMMIT fail on purpose; Sequelize's warnings about it are expected
dropTransactionWarnings();

/**
 * Mural's writes to a SQLite file share one kept connection, one write at a
 * time, instead of opening the file for each: a write that ended cleanly
 * hands it to the next, and one that did not closes it.
 */
const file = sqliteFileDatabase();
const { dir, client } = directoryServer(file, 'sqlite_writer', 5);
test.after.always(() => file.remove());
test.afterEach.always(() => configureSqlite(dir.sequelize, SQLITE_DEFAULTS));

const hire = (name: string, title = 'Engineer') =>
  client.request('POST', '/api/v1/employees', {
    data: { type: 'employees', attributes: { first_name: name, last_name: 'Hire' }, relationships: { positions: { data: [{ type: 'positions', 'temp-id': 'p', method: 'create' }] } } },
    included: [{ type: 'positions', 'temp-id': 'p', attributes: { title } }],
  });

/** The connections open on the file besides the one for reads. */
function writers(): SqliteConnection[] {
  const { connections } = connectionManager(dir.sequelize);
  return Object.entries(connections).filter(([key, connection]) => key !== 'default' && connection).map(([, connection]) => connection!);
}

/** Takes the write lock from another connection, as another process would: it fails while a transaction still holds it. */
async function writeLockIsFree(): Promise<boolean> {
  const other = await rawConnection(file.path);
  try {
    await other.run('BEGIN IMMEDIATE');
    await other.run('ROLLBACK');
    return true;
  } catch {
    return false;
  } finally {
    await other.close();
  }
}

test.serial('consecutive writes run on one kept connection, outside any transaction between them', async (t) => {
  t.is((await hire('First')).status, 201);
  const [kept] = writers();
  t.truthy(kept, 'the write left its connection open for the next');
  t.true(await writeLockIsFree(), 'and holds no lock while it waits');
  for (const name of ['Second', 'Third']) t.is((await hire(name)).status, 201);
  t.deepEqual(writers(), [kept!]);
});

test.serial('a burst of concurrent writes all land, one at a time on the one connection', async (t) => {
  const before = (await tableCounts(dir.models)).Employee!;
  const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => hire(`Burst ${i}`)));
  t.deepEqual(answers.map((answer) => answer.status), answers.map(() => 201));
  t.is((await tableCounts(dir.models)).Employee, before + 25);
  t.is(writers().length, 1);
  t.true(await writeLockIsFree());
});

test.serial('a write refused by validation rolls back and leaves the connection clean for the next', async (t) => {
  const [kept] = writers();
  const before = await tableCounts(dir.models);
  t.is((await hire('Refused', '')).status, 422);
  t.deepEqual(await tableCounts(dir.models), before, 'nothing of it was written');
  t.true(await writeLockIsFree());
  t.is((await hire('After refusal')).status, 201);
  t.deepEqual(writers(), [kept!]);
});

test.serial('a write that could not begin closes the kept connection; the next write opens a fresh one', async (t) => {
  configureSqlite(dir.sequelize, { busyTimeout: 50 });
  const [kept] = writers();
  const release = await holdWriteLock(file.path);
  try {
    t.is((await hire('Locked out')).status, 503);
  } finally {
    await release();
  }
  t.false(kept!.open, 'the connection of the failed write is closed');
  t.deepEqual(writers(), []);
  t.is((await hire('Fresh')).status, 201);
  t.is(writers().length, 1);
  t.not(writers()[0], kept);
});

test.serial('a write that failed before its transaction took the connection leaves no connection behind', async (t) => {
  t.is((await hire('Before')).status, 201);
  const [kept] = writers();
  const manager = connectionManager(dir.sequelize);
  const getConnection = manager.getConnection;
  manager.getConnection = async (options) => {
    await getConnection.call(manager, options);
    throw new Error('the connection went away');
  };
  try {
    t.is((await hire('Never begun')).status, 500);
  } finally {
    manager.getConnection = getConnection;
  }
  t.false(kept!.open);
  t.deepEqual(writers(), []);
  t.is((await hire('After')).status, 201);
});

test.serial('closing Sequelize closes the kept connection', async (t) => {
  const own = sqliteFileDatabase();
  const other = await openDirectory(own, 'sqlite_writer_close', 1);
  try {
    const write = other.resources.DepartmentResource.build({ data: { type: 'departments', attributes: { name: 'Kept' } } });
    t.true(await write.save());
    const kept = Object.entries(connectionManager(other.sequelize).connections).find(([key]) => key !== 'default')?.[1];
    t.true(kept?.open);
    await other.sequelize.close();
    t.false(kept!.open);
  } finally {
    own.remove();
  }
});
