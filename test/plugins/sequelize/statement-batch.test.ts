import test from 'ava';
import { DatabaseError, DataTypes, Model, type Sequelize } from 'sequelize';
import { DatabaseTimeout, Resource, withDeadline, withOwnWrites } from '../../../core/index.ts';
import { SequelizeAdapter } from '../../../plugins/sequelize/index.ts';
import { selectThroughDriver } from '../../../plugins/sequelize/driver-select.ts';
import { batchedSelect, type RunMany, type RunOne } from '../../../plugins/sequelize/statement-batch.ts';
import { openDatabase, testDatabases } from '../../support/databases.ts';

type Row = Record<string, unknown>;

/**
 * A fake database: records what was sent how, and answers each statement
 * with its own text; `HOLD` answers only when `release` is called, standing
 * for another request's read under way.
 */
function recorder(fail?: (sql: string) => unknown) {
  const sent: Array<{ how: 'many' | 'one'; statements: string[] }> = [];
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const answer = (sql: string): Row[] => {
    const error = fail?.(sql);
    if (error) throw error;
    return [{ sql }];
  };
  const runMany: RunMany = async (statements) => {
    sent.push({ how: 'many', statements: [...statements] });
    const failed = statements.map((s) => fail?.(s)).find(Boolean);
    if (failed) throw failed;
    return statements.map(answer);
  };
  const runOne: RunOne = async (sql) => {
    sent.push({ how: 'one', statements: [sql] });
    if (sql === 'HOLD') await held;
    return answer(sql);
  };
  // a database of its own: tests run concurrently, and batches are per database
  const db = {} as Sequelize;
  const select = (sql: string) => batchedSelect(db, sql, runMany, runOne);
  /** Another request (its own deadline) reading until `release()`. */
  const otherRequestReading = () => withDeadline(() => select('HOLD'), { fresh: true, timeout: 5000 });
  return { sent, select, otherRequestReading, release: () => release(), db, runMany, runOne };
}

const sentWithout = (sent: Array<{ how: string; statements: string[] }>) => sent.filter((s) => s.statements[0] !== 'HOLD');

test('while another request reads, reads started together go as one round trip, each caller getting its own rows', async (t) => {
  const { sent, select, otherRequestReading, release } = recorder();
  const other = otherRequestReading();
  const rows = await Promise.all(['A', 'B', 'C'].map(select));
  release();
  await other;
  t.deepEqual(rows, [[{ sql: 'A' }], [{ sql: 'B' }], [{ sql: 'C' }]]);
  t.deepEqual(sentWithout(sent), [{ how: 'many', statements: ['A', 'B', 'C'] }]);
});

test('reads of different lanes (plain rows, rows for model instances) never share a round trip', async (t) => {
  const { sent, select, otherRequestReading, release, db, runMany, runOne } = recorder();
  const other = otherRequestReading();
  const inLane = (sql: string, lane: string) => batchedSelect(db, sql, runMany, runOne, lane);
  await Promise.all([inLane('A', 'plain'), inLane('B', 'models'), inLane('C', 'plain'), select('D'), inLane('E', 'models')]);
  release();
  await other;
  t.deepEqual(sentWithout(sent), [
    { how: 'many', statements: ['A', 'C'] },
    { how: 'many', statements: ['B', 'E'] },
    { how: 'one', statements: ['D'] },
  ]);
});

test('while no other request reads, each read goes out at once, on its own', async (t) => {
  const { sent, select } = recorder();
  const rows = await Promise.all(['A', 'B'].map(select));
  t.deepEqual(rows, [[{ sql: 'A' }], [{ sql: 'B' }]]);
  t.deepEqual(sent, [{ how: 'one', statements: ['A'] }, { how: 'one', statements: ['B'] }]);
});

test('a read issued after a few awaits still joins, one started later does not', async (t) => {
  const { sent, select, otherRequestReading, release } = recorder();
  const other = otherRequestReading();
  const late = async () => {
    await null;
    await Promise.resolve();
    return select('B');
  };
  await Promise.all([select('A'), late()]);
  await select('C');
  release();
  await other;
  t.deepEqual(sentWithout(sent), [{ how: 'many', statements: ['A', 'B'] }, { how: 'one', statements: ['C'] }]);
});

test('reads of different requests (deadlines) or of a committed write never share a batch', async (t) => {
  const { sent, select, otherRequestReading, release } = recorder();
  const other = otherRequestReading();
  await Promise.all([
    withDeadline(() => Promise.all([select('A1'), select('A2')]), { fresh: true, timeout: 5000 }),
    withDeadline(() => Promise.all([select('B1'), select('B2')]), { fresh: true, timeout: 5000 }),
    withOwnWrites(() => Promise.all([select('W1'), select('W2')])),
  ]);
  release();
  await other;
  t.deepEqual(sentWithout(sent).map((s) => s.statements.join(',')).sort(), ['A1,A2', 'B1,B2', 'W1,W2']);
});

test('a batch holds at most 16 statements; the rest start the next', async (t) => {
  const { sent, select, otherRequestReading, release } = recorder();
  const other = otherRequestReading();
  const statements = Array.from({ length: 20 }, (_, i) => `S${i}`);
  const rows = await Promise.all(statements.map(select));
  release();
  await other;
  t.deepEqual(rows.map((r) => r[0]!.sql), statements);
  t.deepEqual(sentWithout(sent).map((s) => s.statements.length), [16, 4]);
});

test('when a batch fails, each statement runs alone: the failing one rejects, the others answer', async (t) => {
  const broken = new Error('no such column');
  const { sent, select, otherRequestReading, release } = recorder((sql) => (sql === 'BAD' ? broken : undefined));
  const other = otherRequestReading();
  const [good, bad, next] = await Promise.allSettled(['A', 'BAD', 'C'].map(select));
  release();
  await other;
  t.deepEqual(good, { status: 'fulfilled', value: [{ sql: 'A' }] });
  t.deepEqual(bad, { status: 'rejected', reason: broken });
  t.deepEqual(next, { status: 'fulfilled', value: [{ sql: 'C' }] });
  t.deepEqual(sentWithout(sent).map((s) => s.how), ['many', 'one', 'one', 'one']);
});

test("Mural's own errors (a timeout) reject every statement of the batch without running them again", async (t) => {
  const timeout = new DatabaseTimeout(10);
  const { sent, select, otherRequestReading, release } = recorder((sql) => (sql === 'HOLD' ? undefined : timeout));
  const other = otherRequestReading();
  const results = await Promise.allSettled(['A', 'B'].map(select));
  release();
  await other;
  t.deepEqual(results, [{ status: 'rejected', reason: timeout }, { status: 'rejected', reason: timeout }]);
  t.is(sentWithout(sent).length, 1);
});

/** On PostgreSQL, through the real driver: the round trips a request makes, and what each read gets back. */
for (const database of testDatabases('statement_batch').filter((d) => d.name === 'postgres')) {
  let sequelize: Sequelize;
  const log: string[] = [];
  let checkouts = 0;
  class Owner extends Model {}
  class Pet extends Model {}
  class PetResource extends Resource {}
  class OwnerResource extends Resource {}

  test.before(async () => {
    sequelize = await openDatabase(database, undefined, { logging: (sql) => void log.push(sql) });
    Owner.init({ name: DataTypes.STRING }, { sequelize, tableName: 'owners', timestamps: false });
    Pet.init({ name: DataTypes.STRING, owner_id: DataTypes.INTEGER }, { sequelize, tableName: 'pets', timestamps: false });
    await sequelize.sync({ force: true });
    for (let i = 1; i <= 5; i++) {
      await Owner.create({ name: `Owner ${i}` });
      await Pet.bulkCreate([{ name: `Pet ${i}a`, owner_id: i }, { name: `Pet ${i}b`, owner_id: i }]);
    }
    Object.assign(PetResource, { adapter: SequelizeAdapter, model: Pet, type: 'pets' });
    PetResource.attribute('name', 'string');
    PetResource.attribute('owner_id', 'integer', { only: ['filterable'] });
    Object.assign(OwnerResource, { adapter: SequelizeAdapter, model: Owner, type: 'owners' });
    OwnerResource.attribute('name', 'string');
    OwnerResource.hasMany('pets', { resource: PetResource });
    const manager = (sequelize as unknown as { connectionManager: { getConnection(options: { type: string }): Promise<unknown> } }).connectionManager;
    const getConnection = manager.getConnection.bind(manager);
    manager.getConnection = (options) => {
      checkouts++;
      return getConnection(options);
    };
  });
  test.after.always(() => sequelize?.close());

  const request = { path: '/owners', query: 'include=pets&page[size]=2', action: 'index' as const };
  const read = () => withDeadline(() => OwnerResource.all({ include: 'pets', page: { size: 2 } }, undefined, { request }).toJsonapi(), { fresh: true });

  test.serial(`${database.name}: alone, a request's page, count and include each go out at once on a connection of their own`, async (t) => {
    const expected = JSON.stringify(await read());
    checkouts = 0;
    t.is(JSON.stringify(await read()), expected);
    t.is(checkouts, 3);
  });

  test.serial(`${database.name}: while another request reads, the page with its count is one round trip, and every statement is still logged`, async (t) => {
    const expected = JSON.stringify(await read());
    log.length = 0;
    checkouts = 0;
    const other = withDeadline(() => selectThroughDriver(sequelize, 'SELECT pg_sleep(0.5) AS slept;', undefined), { fresh: true });
    const document = await read();
    await other;
    t.is(JSON.stringify(document), expected);
    t.is(checkouts, 3, "the other request's read, the page with its count, then the pets");
    t.is(log.filter((line) => !line.includes('pg_sleep')).length, 3, 'page, count and pets each logged');
    t.is((document.included as unknown[]).length, 4);
    t.regex(String((document.links as { last?: string }).last), /page(%5B|\[)number(%5D|\])=3/);
  });

  test.serial(`${database.name}: statements with or without their closing semicolon batch alike`, async (t) => {
    checkouts = 0;
    const other = withDeadline(() => selectThroughDriver(sequelize, 'SELECT pg_sleep(0.3) AS slept;', undefined), { fresh: true });
    const rows = await Promise.all([
      selectThroughDriver(sequelize, 'SELECT 1 AS one', undefined),
      selectThroughDriver(sequelize, 'SELECT 2 AS two;  ', undefined),
      selectThroughDriver(sequelize, "SELECT ';' AS semicolon;", undefined),
    ]);
    await other;
    t.deepEqual(rows, [[{ one: 1 }], [{ two: 2 }], [{ semicolon: ';' }]]);
    t.is(checkouts, 2, "the other request's read, then one batch");
  });

  test.serial(`${database.name}: a failing statement in a batch rejects alone, with Sequelize's DatabaseError`, async (t) => {
    checkouts = 0;
    const other = withDeadline(() => selectThroughDriver(sequelize, 'SELECT pg_sleep(0.3) AS slept;', undefined), { fresh: true });
    const [good, bad] = await Promise.allSettled([
      selectThroughDriver(sequelize, 'SELECT name FROM owners WHERE id = 1;', undefined),
      selectThroughDriver(sequelize, 'SELECT no_such_column FROM owners;', undefined),
    ]);
    await other;
    // the failing one alone goes once more through sequelize.query, which shapes its error
    t.is(checkouts, 5, "the other request's read, the batch, each statement alone, sequelize.query");
    t.deepEqual(good, { status: 'fulfilled', value: [{ name: 'Owner 1' }] });
    t.is(bad.status, 'rejected');
    t.true((bad as PromiseRejectedResult).reason instanceof DatabaseError);
  });

  test.serial(`${database.name}: a batch past the request's deadline is cancelled in the database, and every statement of it times out`, async (t) => {
    checkouts = 0;
    const other = withDeadline(() => selectThroughDriver(sequelize, 'SELECT pg_sleep(0.5) AS slept;', undefined), { fresh: true });
    const started = Date.now();
    const results = await withDeadline(
      () => Promise.allSettled([
        selectThroughDriver(sequelize, 'SELECT pg_sleep(5) AS slept;', undefined),
        selectThroughDriver(sequelize, 'SELECT 1 AS one;', undefined),
      ]),
      { fresh: true, timeout: 300 },
    );
    t.true(Date.now() - started < 3000, 'answered soon after the deadline, not after the sleep');
    await other;
    t.is(checkouts, 2, "the other request's read, then one batch");
    for (const result of results) t.true(result.status === 'rejected' && result.reason instanceof DatabaseTimeout);
    const [still] = await sequelize.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE 'SELECT pg_sleep(5)%'", { plain: false, raw: true });
    t.deepEqual(still, [{ n: 0 }], 'nothing left running on the server');
  });

  test.serial(`${database.name}: concurrent requests each get their own rows`, async (t) => {
    const one = (id: number) => withDeadline(() => OwnerResource.find({ id, include: 'pets' }).toJsonapi(), { fresh: true });
    const documents = await Promise.all([1, 2, 3, 4, 5, 1, 2, 3, 4, 5].map(one));
    for (const [i, document] of documents.entries()) {
      const id = (i % 5) + 1;
      t.is((document.data as { id: string }).id, String(id));
      t.deepEqual((document.included as unknown as Array<{ attributes: { name: string } }>).map((p) => p.attributes.name), [`Pet ${id}a`, `Pet ${id}b`]);
    }
  });

  test.serial(`${database.name}: rows only Mural reads get a UTC timestamptz as ISO 8601 text, alone or batched; other reads get Dates`, async (t) => {
    const sql = "SELECT TIMESTAMPTZ '2020-01-02 03:04:05.678901+00' AS at";
    t.deepEqual(await selectThroughDriver(sequelize, sql, undefined, { plain: true }), [{ at: '2020-01-02T03:04:05.678Z' }]);
    const other = withDeadline(() => selectThroughDriver(sequelize, 'SELECT pg_sleep(0.3) AS slept;', undefined), { fresh: true });
    const batched = await Promise.all([selectThroughDriver(sequelize, sql, undefined, { plain: true }), selectThroughDriver(sequelize, `${sql};`, undefined, { plain: true })]);
    await other;
    t.deepEqual(batched, [[{ at: '2020-01-02T03:04:05.678Z' }], [{ at: '2020-01-02T03:04:05.678Z' }]]);
    const [row] = await selectThroughDriver(sequelize, sql, undefined);
    t.true(row!.at instanceof Date);
    t.is((row!.at as Date).toISOString(), '2020-01-02T03:04:05.678Z');
  });
}
