import test, { type ExecutionContext } from 'ava';
import sqlite3 from 'sqlite3';
import { DataTypes, Model, type Sequelize } from 'sequelize';
import { SequelizeAdapter } from '../../../../plugins/sequelize/index.ts';
import { selectPrepared, type PreparingConnection } from '../../../../plugins/sequelize/sqlite/statements.ts';
import { selectJsonBatch, selectJsonRows } from '../../../../plugins/sequelize/sqlite/json-rows.ts';
import { openDatabase } from '../../../support/databases.ts';
import { withDeadline } from '../../../../core/index.ts';

/**
 * SQLite answers Mural's templated SELECTs as one JSON text. Whatever a
 * column holds, the rows must be the ones node-sqlite3 builds itself, in the
 * same order.
 */
let db: sqlite3.Database;
const connection = () => db as unknown as PreparingConnection;

test.before(async () => {
  db = new sqlite3.Database(':memory:');
  await run('CREATE TABLE t ("id" INTEGER PRIMARY KEY, "i" INTEGER, "r" REAL, "n" NUMERIC, "s" TEXT, "x", "we""ird" TEXT)');
  const values: unknown[] = [
    0.1 + 0.2, 1e300, 5e-324, 123456789.12345679, 1 / 3, -0, 2 ** 53 + 2, 1e21, 1.5e-7, 100, 1e308 * 10, -1e308 * 10, 2.5, 12,
    9007199254740993n, 'text', 'quote " backslash \\ nul \u0000 emoji 😀 line\nbreak', '', null, true, false,
  ];
  for (const value of values) {
    const bound = typeof value === 'bigint' ? value.toString() : value;
    await run('INSERT INTO t ("i", "r", "n", "s", "x", "we""ird") VALUES (?, ?, ?, ?, ?, ?)', [bound, bound, bound, bound, bound, typeof bound === 'string' ? `'${bound}'` : bound]);
  }
});
test.after.always(() => new Promise<void>((resolve) => db.close(() => resolve())));

function run(sql: string, parameters: unknown[] = []): Promise<void> {
  return new Promise((resolve, reject) => db.run(sql, parameters, (error) => (error ? reject(error) : resolve())));
}

const COLUMNS = ['id', 'i', 'r', 'n', 's', 'x', 'we"ird'];

test.serial('every kind of value comes back as node-sqlite3 reads it, REALs to the last digit', async (t) => {
  const sql = 'SELECT "id", "i", "r", "n", "s", "x", "we""ird" FROM t ORDER BY "id";';
  const plain = await selectPrepared(connection(), sql);
  const json = await selectJsonRows(connection(), sql, COLUMNS);
  t.is(json.length, plain.length);
  plain.forEach((row, index) => {
    for (const column of COLUMNS) t.true(Object.is(json[index]![column], row[column]), `row ${index}, ${column}: ${String(json[index]![column])} against ${String(row[column])}`);
  });
  t.is(plain.find((row) => row.id === 1)!.r, 0.30000000000000004, 'the fixture holds a REAL json_object alone would round');
});

test.serial('the order of an ORDER BY with LIMIT and OFFSET is kept, and no row is an empty array', async (t) => {
  const sql = 'SELECT "id", "s" FROM t ORDER BY "s" DESC, "id" DESC LIMIT 7 OFFSET 2;';
  t.deepEqual(await selectJsonRows(connection(), sql, ['id', 's']), await selectPrepared(connection(), sql));
  t.deepEqual(await selectJsonRows(connection(), 'SELECT "id" FROM t WHERE "id" < 0;', ['id']), []);
});

test.serial('a BLOB, which SQLite JSON cannot hold, makes the statement run again as plain rows', async (t) => {
  await run('CREATE TABLE b ("id" INTEGER PRIMARY KEY, "data" BLOB)');
  await run('INSERT INTO b ("data") VALUES (?)', [Buffer.from([0, 255, 7])]);
  const rows = await selectJsonRows(connection(), 'SELECT "id", "data" FROM b;', ['id', 'data']);
  t.deepEqual(rows, [{ id: 1, data: Buffer.from([0, 255, 7]) }]);
});

test.serial("Mural's reads on SQLite take this path, and answer what Sequelize's findAll answers", async (t) => {
  const sequelize: Sequelize = await openDatabase({ name: 'sqlite', url: ':memory:' }, undefined, { logging: false });
  t.teardown(() => sequelize.close());
  class Reading extends Model {}
  Reading.init({ value: DataTypes.FLOAT, label: DataTypes.STRING, taken: DataTypes.DATE, ok: DataTypes.BOOLEAN }, { sequelize, tableName: 'readings', timestamps: false });
  await sequelize.sync({ force: true });
  await Reading.bulkCreate([
    { value: 0.1 + 0.2, label: 'a "quoted" label', taken: new Date(Date.UTC(2024, 4, 6, 7, 8, 9, 123)), ok: true },
    { value: null, label: null, taken: null, ok: false },
  ]);
  const { logged, prepared } = recordStatements(t, sequelize);
  const adapter = new SequelizeAdapter({ name: 'ReadingResource', model: Reading } as never);
  const scope = adapter.order(adapter.baseScope(Reading), 'id', 'asc');
  const rows = (await adapter.resolve(scope, { plain: true } as never)) as unknown as Array<Record<string, unknown>>;
  t.deepEqual(rows.map((row) => ({ ...row })), (await Reading.findAll({ order: [['id', 'ASC']], raw: true })).map((row) => ({ ...row })) as never);
  t.true(prepared.some((sql) => sql.startsWith('SELECT json_group_array(json_object(') && sql.includes('FROM `readings`')), 'SQLite was asked for the rows as JSON');
  t.true(logged.some((sql) => /^Executing \(default\): SELECT `id` AS `id`, `value` AS `value`, `label` AS `label`, `taken` AS `taken`, `ok` AS `ok` FROM `readings`/.test(sql)), 'the log shows the SELECT as written, not its JSON wrapping');
});

test.serial('several SELECTs in one statement answer each one its own rows, empty and BLOB-free ones alike', async (t) => {
  const statements = [
    { sql: 'SELECT "id", "s" FROM t ORDER BY "s" DESC, "id" DESC LIMIT 7 OFFSET 2;', columns: ['id', 's'] },
    { sql: 'SELECT "id" FROM t WHERE "id" < 0', columns: ['id'] },
    { sql: 'SELECT COUNT(*) AS "count" FROM t;', columns: ['count'] },
    { sql: 'SELECT "id", "i", "r", "n", "s", "x", "we""ird" FROM t ORDER BY "id";', columns: COLUMNS },
  ];
  const batched = await selectJsonBatch(connection(), statements);
  t.is(batched.length, statements.length);
  for (const [index, { sql, columns }] of statements.entries()) t.deepEqual(batched[index], await selectJsonRows(connection(), sql, columns), sql);
  t.deepEqual(batched[2], [{ count: 21 }]);
  await t.throwsAsync(selectJsonBatch(connection(), [statements[0]!, { sql: 'SELECT "id", "data" FROM b;', columns: ['id', 'data'] }]), { message: /JSON cannot hold BLOB values/ });
});

test.serial("concurrent reads' sibling statements go to SQLite as one, answer what they answer alone, and are logged one by one", async (t) => {
  const sequelize: Sequelize = await openDatabase({ name: 'sqlite', url: ':memory:' }, undefined, { logging: false });
  t.teardown(() => sequelize.close());
  class Shelf extends Model {}
  class Book extends Model {}
  Shelf.init({ name: DataTypes.STRING }, { sequelize, tableName: 'shelves', timestamps: false });
  Book.init({ title: DataTypes.STRING, weight: DataTypes.FLOAT, shelf_id: DataTypes.INTEGER }, { sequelize, tableName: 'books', timestamps: false });
  await sequelize.sync({ force: true });
  await Shelf.bulkCreate(Array.from({ length: 6 }, (_, i) => ({ name: `shelf ${i}` })));
  await Book.bulkCreate(Array.from({ length: 30 }, (_, i) => ({ title: `book "${i}"`, shelf_id: (i % 6) + 1, weight: i / 3 })));
  const shelves = new SequelizeAdapter({ name: 'ShelfResource', model: Shelf } as never);
  const books = new SequelizeAdapter({ name: 'BookResource', model: Book } as never);
  // the reads of one request (page, count, a sideload), and of another request alongside
  const reads = () => withDeadline(() => Promise.all([
    shelves.resolve(shelves.order(shelves.baseScope(Shelf), 'id', 'asc'), { plain: true } as never),
    shelves.count(shelves.baseScope(Shelf)),
    books.resolve(books.order(books.baseScope(Book), 'id', 'asc'), { plain: true } as never),
  ]));
  // one request at a time: each statement goes out alone
  const alone = await reads();
  const { logged, prepared } = recordStatements(t, sequelize);
  // two requests at once, each under its own deadline: the second's reads find the first's under way, and batch
  const [first, second] = await Promise.all([reads(), reads()]);
  const plainly = (answers: unknown) => JSON.parse(JSON.stringify(answers)) as unknown;
  t.deepEqual(plainly(first), plainly(alone));
  t.deepEqual(plainly(second), plainly(alone));
  t.is((alone[2] as unknown as Array<{ weight: unknown }>)[1]!.weight, 1 / 3);
  t.true(prepared.some((sql) => sql.startsWith("SELECT '[' || (SELECT json_group_array(")), 'sibling reads went to SQLite as one statement');
  t.is(logged.length, 6, 'each statement is logged as if sent alone');
});

/**
 * The log lines `sequelize` writes and the SQL node-sqlite3 is asked to
 * prepare, from now until the test ends: which form of a SELECT reached
 * SQLite, and what the log says of it.
 */
function recordStatements(t: ExecutionContext, sequelize: Sequelize): { logged: string[]; prepared: string[] } {
  const logged: string[] = [];
  (sequelize as unknown as { options: { logging: (sql: string) => void } }).options.logging = (sql) => void logged.push(sql);
  const prepared: string[] = [];
  const prepare = sqlite3.Database.prototype.prepare;
  sqlite3.Database.prototype.prepare = function (this: sqlite3.Database, sql: string, ...rest: never[]) {
    prepared.push(sql);
    return prepare.call(this, sql, ...rest);
  } as typeof prepare;
  t.teardown(() => void (sqlite3.Database.prototype.prepare = prepare));
  return { logged, prepared };
}
