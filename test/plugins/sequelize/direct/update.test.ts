import test from 'ava';
import { DataTypes, Model, UniqueConstraintError, type ModelStatic, type Sequelize } from 'sequelize';
import { ConflictError } from '../../../../core/index.ts';
import { SequelizeAdapter } from '../../../../plugins/sequelize/index.ts';
import { countQueryCalls } from '../../../support/query-calls.ts';
import { openDatabase, testDatabases } from '../../../support/databases.ts';

/**
 * A loaded record whose model has no update or save hooks is written by the
 * UPDATE Sequelize's query generator builds, sent by Mural through the
 * driver rather than through `record.save()`. The row, the instance, the
 * version check, the log line and the errors are `save()`'s.
 */
function defineCard(sequelize: Sequelize): ModelStatic<Model> {
  class Card extends Model {}
  Card.init(
    {
      code: { type: DataTypes.STRING, unique: true },
      label: { type: DataTypes.STRING, field: 'display_label' },
      amount: DataTypes.DECIMAL(10, 2),
      extra: DataTypes.JSON,
    },
    { sequelize, tableName: 'direct_cards', underscored: true, version: true },
  );
  return Card;
}

for (const db of testDatabases('direct_update')) {
  const log: string[] = [];
  let sequelize: Sequelize;
  let Card: ModelStatic<Model>;
  let adapter: SequelizeAdapter;

  test.before(async () => {
    sequelize = await openDatabase(db, undefined, { logging: (sql) => void log.push(sql) });
    Card = defineCard(sequelize);
    await sequelize.sync({ force: true });
    adapter = new SequelizeAdapter({ name: 'CardResource', model: Card } as never);
  });
  test.after.always(() => sequelize?.close());

  const card = async (code: string) => (await Card.create({ code, label: 'Plain', amount: '1.00', extra: { n: 1 } })).get('id') as number;
  /** Loads, changes and saves one card in a transaction of its own, through the adapter or through `record.save()`. */
  const change = (id: number, values: Record<string, unknown>, through: 'adapter' | 'save' = 'adapter') =>
    adapter.transaction(async (transaction) => {
      const record = (await Card.findByPk(id, { transaction: transaction as never }))!;
      record.set(values);
      return through === 'adapter' ? adapter.save(record, transaction) : record.save({ transaction: transaction as never });
    });

  test.serial(`${db.name}: the row and the instance are those record.save() leaves`, async (t) => {
    const [a, b] = [await card('update-a'), await card('update-b')];
    const values = { label: 'Gold', amount: '12.50', extra: { n: 2, tags: ['x'] } };
    const counter = countQueryCalls(sequelize);
    let direct: Model;
    try {
      direct = await adapter.transaction(async (transaction) => {
        const record = (await Card.findByPk(a, { transaction: transaction as never }))!;
        record.set(values);
        const before = counter.calls;
        const saved = await adapter.save(record, transaction);
        t.is(counter.calls, before, 'the UPDATE did not go through sequelize.query');
        return saved;
      });
    } finally {
      counter.restore();
    }
    const saved = await change(b, values, 'save');
    const shape = (record: Model) => {
      const { id, code, createdAt, updatedAt, ...rest } = record.get({ plain: true }) as Record<string, unknown>;
      return { rest, changed: record.changed(), updated: updatedAt instanceof Date && updatedAt.getTime() >= (createdAt as Date).getTime() };
    };
    t.deepEqual(shape(direct), shape(saved));
    t.is(direct.get('version'), 1);
    const read = (await Card.findByPk(a))!;
    t.deepEqual(shape(read).rest, shape((await Card.findByPk(b))!).rest);
    t.is(read.get('label'), 'Gold');
  });

  test.serial(`${db.name}: the UPDATE is logged as Sequelize logs it, and a record without changes sends nothing`, async (t) => {
    const [a, b] = [await card('log-a'), await card('log-b')];
    const lines = async (id: number, through: 'adapter' | 'save', values: Record<string, unknown>) => {
      log.length = 0;
      await adapter.transaction(async (transaction) => {
        const record = (await Card.findByPk(id, { transaction: transaction as never }))!;
        record.set(values);
        log.length = 0;
        await (through === 'adapter' ? adapter.save(record, transaction) : record.save({ transaction: transaction as never }));
      });
      // the COMMIT is the last line; each write has a transaction (and id) of its own
      return log.slice(0, -1).map((line) => line.replace(/^Executing \([^)]*\)/, 'Executing (…)'));
    };
    const direct = await lines(a, 'adapter', { label: 'Logged' });
    t.is(direct.length, 1);
    t.deepEqual(direct, await lines(b, 'save', { label: 'Logged' }));
    t.deepEqual(await lines(a, 'adapter', { label: 'Logged' }), [], 'the same value again: nothing changed, nothing sent');
  });

  test.serial(`${db.name}: a version another write moved on is a ConflictError, and that write stands`, async (t) => {
    const id = await card('stale');
    const stale = (await Card.findByPk(id))!;
    await change(id, { label: 'First' });
    stale.set('label', 'Second');
    await t.throwsAsync(adapter.transaction((transaction) => adapter.save(stale, transaction)), { instanceOf: ConflictError });
    const read = (await Card.findByPk(id))!;
    t.is(read.get('label'), 'First');
    t.is(read.get('version'), 1);
  });

  test.serial(`${db.name}: a duplicate is Sequelize's UniqueConstraintError, which the adapter calls taken`, async (t) => {
    await card('taken-one');
    const id = await card('taken-two');
    const error = await t.throwsAsync(change(id, { code: 'taken-one' }), { instanceOf: UniqueConstraintError });
    t.deepEqual(adapter.validationProblems(error)?.map((p) => p.code), ['taken']);
    t.is((await Card.findByPk(id))!.get('code'), 'taken-two');
  });

  test.serial(`${db.name}: a model with an update hook keeps Sequelize's path, and the hook runs`, async (t) => {
    const id = await card('hooked');
    Card.addHook('beforeUpdate', 'shout', (record: Model) => void record.set('label', String(record.get('label')).toUpperCase()));
    try {
      await change(id, { label: 'quiet' });
    } finally {
      Card.removeHook('beforeUpdate', 'shout');
    }
    t.is((await Card.findByPk(id))!.get('label'), 'QUIET');
  });
}
