import test from 'ava';
import { DatabaseError, DataTypes, Model, type Sequelize } from 'sequelize';
import { DatabaseTimeout, Resource, withDeadline, withOwnWrites } from '../../../core/index.ts';
import { SequelizeAdapter } from '../../../plugins/sequelize/index.ts';
import { selectThroughDriver } from '../../../plugins/sequelize/driver-select.ts';
import { batchedSelect, type RunMany, type RunOne } from '../../../plugins/sequelize/statement-batch.ts';
import { openDatabase, testDatabases } from '../../support/databases.ts';

type Row = Record<string, unknown>;

/** A fake database: records what was sent how, and answers each statement with its own text. */
function recorder(fail?: (sql: string) => unknown) {
  const sent: Array<{ how: 'many' | 'one'; statements: string[] }> = [];
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
    return answer(sql);
  };
  // a database of its own: tests run concurrently, and batches are per database
  return { sent, runMany, runOne, db: {} as Sequelize };
}

test('reads started together go as one round trip, each caller getting its own rows', async (t) => {
  const { sent, runMany, runOne, db } = recorder();
  const rows = await Promise.all(['A', 'B', 'C'].map((sql) => batchedSelect(db, sql, runMany, runOne)));
  t.deepEqual(rows, [[{ sql: 'A' }], [{ sql: 'B' }], [{ sql: 'C' }]]);
  t.deepEqual(sent, [{ how: 'many', statements: ['A', 'B', 'C'] }]);
});

test('a read issued after a few awaits still joins, one started later does not', async (t) => {
  const { sent, runMany, runOne, db } = recorder();
  const late = async () => {
    await null;
    await Promise.resolve();
    return batchedSelect(db, 'B', runMany, runOne);
  };
  await Promise.all([batchedSelect(db, 'A', runMany, runOne), late()]);
  await batchedSelect(db, 'C', runMany, runOne);
  t.deepEqual(sent, [{ how: 'many', statements: ['A', 'B'] }, { how: 'one', statements: ['C'] }]);
});

test('a read alone is sent as before, not as a batch', async (t) => {
  const { sent, runMany, runOne, db } = recorder();
  t.deepEqual(await batchedSelect(db, 'A', runMany, runOne), [{ sql: 'A' }]);
  t.deepEqual(sent, [{ how: 'one', statements: ['A'] }]);
});

test('reads of different requests (deadlines) or of a committed write never share a batch', async (t) => {
  const { sent, runMany, runOne, db } = recorder();
  await Promise.all([
    withDeadline(() => Promise.all([batchedSelect(db, 'A1', runMany, runOne), batchedSelect(db, 'A2', runMany, runOne)]), { fresh: true, timeout: 5000 }),
    withDeadline(() => Promise.all([batchedSelect(db, 'B1', runMany, runOne), batchedSelect(db, 'B2', runMany, runOne)]), { fresh: true, timeout: 5000 }),
    withOwnWrites(() => batchedSelect(db, 'W', runMany, runOne)),
  ]);
  const batches = sent.map((s) => s.statements.join(',')).sort();
  t.deepEqual(batches, ['A1,A2', 'B1,B2', 'W']);
});

test('a batch holds at most 16 statements; the rest start the next', async (t) => {
  const { sent, runMany, runOne, db } = recorder();
  const statements = Array.from({ length: 20 }, (_, i) => `S${i}`);
  const rows = await Promise.all(statements.map((sql) => batchedSelect(db, sql, runMany, runOne)));
  t.deepEqual(rows.map((r) => r[0]!.sql), statements);
  t.deepEqual(sent.map((s) => s.statements.length), [16, 4]);
});

test('when a batch fails, each statement runs alone: the failing one rejects, the others answer', async (t) => {
  const broken = new Error('no such column');
  const { sent, runMany, runOne, db } = recorder((sql) => (sql === 'BAD' ? broken : undefined));
  const [good, bad, other] = await Promise.allSettled(['A', 'BAD', 'C'].map((sql) => batchedSelect(db, sql, runMany, runOne)));
  t.deepEqual(good, { status: 'fulfilled', value: [{ sql: 'A' }] });
  t.deepEqual(bad, { status: 'rejected', reason: broken });
  t.deepEqual(other, { status: 'fulfilled', value: [{ sql: 'C' }] });
  t.deepEqual(sent.map((s) => s.how), ['many', 'one', 'one', 'one']);
});

test("Mural's own errors (a timeout) reject every statement of the batch without running them again", async (t) => {
  const timeout = new DatabaseTimeout(10);
  const { sent, runMany, runOne, db } = recorder(() => timeout);
  const results = await Promise.allSettled(['A', 'B'].map((sql) => batchedSelect(db, sql, runMany, runOne)));
  t.deepEqual(results, [{ status: 'rejected', reason: timeout }, { status: 'rejected', reason: timeout }]);
  t.is(sent.length, 1);
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

  test.serial(`${database.name}: a page, its count and its include take two round trips, and every statement is still logged`, async (t) => {
    const request = { path: '/owners', query: 'include=pets&page[size]=2', action: 'index' as const };
    const read = () => withDeadline(() => OwnerResource.all({ include: 'pets', page: { size: 2 } }, undefined, { request }).toJsonapi(), { fresh: true });
    const expected = JSON.stringify(await read());
    log.length = 0;
    checkouts = 0;
    const document = await read();
    t.is(JSON.stringify(document), expected);
    t.is(checkouts, 2, 'the page with its count, then the pets');
    t.is(log.length, 3, 'page, count and pets each logged');
    t.is((document.included as unknown[]).length, 4);
    t.regex(String((document.links as { last?: string }).last), /page(%5B|\[)number(%5D|\])=3/);
  });

  test.serial(`${database.name}: a failing statement in a batch rejects alone, with Sequelize's DatabaseError`, async (t) => {
    const [good, bad] = await Promise.allSettled([
      selectThroughDriver(sequelize, 'SELECT name FROM owners WHERE id = 1;', undefined),
      selectThroughDriver(sequelize, 'SELECT no_such_column FROM owners;', undefined),
    ]);
    t.deepEqual(good, { status: 'fulfilled', value: [{ name: 'Owner 1' }] });
    t.is(bad.status, 'rejected');
    t.true((bad as PromiseRejectedResult).reason instanceof DatabaseError);
  });

  test.serial(`${database.name}: a batch past the request's deadline is cancelled in the database, and every statement of it times out`, async (t) => {
    const started = Date.now();
    const results = await withDeadline(
      () => Promise.allSettled([
        selectThroughDriver(sequelize, 'SELECT pg_sleep(5) AS slept;', undefined),
        selectThroughDriver(sequelize, 'SELECT 1 AS one;', undefined),
      ]),
      { fresh: true, timeout: 300 },
    );
    t.true(Date.now() - started < 3000, 'answered soon after the deadline, not after the sleep');
    for (const result of results) t.true(result.status === 'rejected' && result.reason instanceof DatabaseTimeout);
    const [still] = await sequelize.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(5)%'", { plain: false, raw: true });
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
}
