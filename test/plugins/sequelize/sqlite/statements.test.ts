import test from 'ava';
import { DataTypes, Model, type Sequelize } from 'sequelize';
import { selectThroughDriver } from '../../../../plugins/sequelize/driver-select.ts';
import { SequelizeAdapter } from '../../../../plugins/sequelize/index.ts';
import { selectPrepared, type PreparingConnection } from '../../../../plugins/sequelize/sqlite/statements.ts';
import { openDatabase } from '../../../support/databases.ts';
import { rawConnection, sqliteFileDatabase } from '../../../support/sqlite-file.ts';

/**
 * On SQLite, the statements Mural sends through the driver are prepared once
 * per connection and SQL text and kept. Keeping them must change nothing but
 * speed: no lock or read snapshot held between requests, no stale rows,
 * no failure that sticks, no connection that cannot close.
 */
const file = sqliteFileDatabase();
let sequelize: Sequelize;
class Note extends Model {}

test.before(async () => {
  sequelize = await openDatabase(file, undefined, { logging: false });
  Note.init({ body: DataTypes.STRING }, { sequelize, tableName: 'notes', timestamps: false });
  await sequelize.sync({ force: true });
  // the read connection is prepared (WAL, busy timeout) by Mural's first use of the instance
  new SequelizeAdapter({ name: 'NoteResource', model: Note } as never).baseScope(Note);
  await Note.create({ body: 'first' });
});
test.after.always(async () => {
  await sequelize?.close();
  file.remove();
});

const everyNote = 'SELECT `id`, `body` FROM `notes` ORDER BY `id`;';
const bodies = async () => (await selectThroughDriver(sequelize, everyNote, undefined)).map((row) => row.body);

test.serial('a kept SELECT sees what other connections commit after it ran', async (t) => {
  t.deepEqual(await bodies(), ['first']);
  const other = await rawConnection(file.path);
  try {
    await other.run("INSERT INTO notes (body) VALUES ('second')");
  } finally {
    await other.close();
  }
  t.deepEqual(await bodies(), ['first', 'second']);
});

test.serial('a kept SELECT holds no read snapshot: a checkpoint moves the whole log into the database', async (t) => {
  for (let i = 0; i < 5; i++) await bodies();
  const other = await rawConnection(file.path);
  try {
    await other.run("INSERT INTO notes (body) VALUES ('third')");
    const [result] = (await other.all('PRAGMA wal_checkpoint(PASSIVE)')) as Array<{ busy: number; log: number; checkpointed: number }>;
    t.true(result!.log > 0, 'the database is in WAL mode and the insert is in the log');
    t.is(result!.checkpointed, result!.log, 'no reader held the log back');
  } finally {
    await other.close();
  }
  t.deepEqual(await bodies(), ['first', 'second', 'third']);
});

test.serial('the same SELECT run by many requests at once answers each of them', async (t) => {
  const answers = await Promise.all(Array.from({ length: 40 }, () => bodies()));
  t.true(answers.every((answer) => answer.join() === 'first,second,third'));
});

test.serial('a SELECT that fails is not kept: it works once its table exists', async (t) => {
  const later = 'SELECT `id` FROM `later_notes`;';
  await t.throwsAsync(selectThroughDriver(sequelize, later, undefined), { message: /no such table/ });
  await sequelize.query('CREATE TABLE `later_notes` (`id` INTEGER PRIMARY KEY)');
  t.deepEqual(await selectThroughDriver(sequelize, later, undefined), []);
  // a kept statement does not stand in the way of dropping its table
  await sequelize.query('DROP TABLE `later_notes`');
  await t.throwsAsync(selectThroughDriver(sequelize, later, undefined), { message: /no such table/ });
});

test.serial('in memory, where reads and writes share one connection, kept statements let the schema be rebuilt', async (t) => {
  const memory = await openDatabase({ name: 'sqlite', url: ':memory:' }, undefined, { logging: false });
  class Item extends Model {}
  Item.init({ name: DataTypes.STRING }, { sequelize: memory, tableName: 'items', timestamps: false });
  await memory.sync({ force: true });
  const adapter = new SequelizeAdapter({ name: 'ItemResource', model: Item } as never);
  adapter.baseScope(Item);
  await adapter.transaction((transaction) => adapter.save(Item.build({ name: 'kept' }), transaction));
  const items = 'SELECT `name` FROM `items`;';
  t.deepEqual(await selectThroughDriver(memory, items, undefined), [{ name: 'kept' }]);
  await memory.sync({ force: true });
  t.deepEqual(await selectThroughDriver(memory, items, undefined), []);
  await adapter.transaction((transaction) => adapter.save(Item.build({ name: 'again' }), transaction));
  t.deepEqual(await selectThroughDriver(memory, items, undefined), [{ name: 'again' }]);
  // requests that prepare the same new SELECT at once: one statement is kept, the others are finalized after their run
  const fresh = 'SELECT `name` AS `label` FROM `items`;';
  const answers = await Promise.all(Array.from({ length: 20 }, () => selectThroughDriver(memory, fresh, undefined)));
  t.true(answers.every((rows) => rows.length === 1 && rows[0]!.label === 'again'));
  await t.notThrowsAsync(memory.close(), 'every statement was finalized: SQLite closes the connection');
});

test.serial('a statement run often stays prepared while statements seen once pass through, at most 128 kept', async (t) => {
  const { default: sqlite3 } = await import('sqlite3');
  const database = new sqlite3.Database(':memory:');
  let prepares = 0;
  const connection: PreparingConnection = {
    prepare: (sql, done) => {
      prepares++;
      return database.prepare(sql, done) as never;
    },
    close: (done) => database.close(done),
  };
  const hot = 'SELECT 0 AS n';
  t.deepEqual(await selectPrepared(connection, hot), [{ n: 0 }]);
  for (let i = 1; i <= 300; i++) {
    t.deepEqual(await selectPrepared(connection, `SELECT ${i} AS n`), [{ n: i }]);
    if (i % 10 === 0) await selectPrepared(connection, hot);
  }
  t.is(prepares, 301, 'each statement prepared once, the hot one never again');
  // the first of those seen once were let go, the last ones kept
  await selectPrepared(connection, 'SELECT 1 AS n');
  await selectPrepared(connection, 'SELECT 300 AS n');
  t.is(prepares, 302);
  await new Promise<void>((resolve, reject) => connection.close((error) => (error ? reject(error) : resolve())));
});
