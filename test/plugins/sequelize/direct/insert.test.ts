import test from 'ava';
import { DataTypes, DatabaseError, ForeignKeyConstraintError, Model, Sequelize, UniqueConstraintError, type ModelStatic, type SaveOptions } from 'sequelize';
import { SequelizeAdapter } from '../../../../plugins/sequelize/index.ts';
import { countQueryCalls } from '../../../support/query-calls.ts';
import { openDatabase, testDatabases, type TestDatabase } from '../../../support/databases.ts';
import { sqliteFileDatabase } from '../../../support/sqlite-file.ts';

/**
 * A new record with no save hooks is written by an INSERT Mural sends
 * through the driver rather than through `record.save()`. Nothing a user
 * can see may change: the row, the instance afterwards, the query log, the
 * errors, and hooks still run where a model has them.
 */
function defineModels(sequelize: Sequelize) {
  class Badge extends Model {}
  class Holder extends Model {}
  Holder.init({ name: DataTypes.STRING }, { sequelize, tableName: 'direct_holders', timestamps: false });
  Badge.init(
    {
      code: { type: DataTypes.STRING, unique: true },
      label: { type: DataTypes.STRING, field: 'display_label' },
      active: { type: DataTypes.BOOLEAN, defaultValue: true },
      amount: DataTypes.DECIMAL(10, 2),
      ratio: DataTypes.FLOAT,
      issued: DataTypes.DATEONLY,
      seen: DataTypes.DATE,
      extra: DataTypes.JSON,
      holder_id: DataTypes.INTEGER,
    },
    { sequelize, tableName: 'direct_badges', underscored: true, version: true },
  );
  Badge.belongsTo(Holder, { foreignKey: 'holder_id' });
  return { Badge, Holder };
}

const attributes = (code: string) => ({
  code, label: 'Gold', amount: '12.50', ratio: 0.25, issued: '2024-02-03', seen: new Date('2024-05-06T07:08:09.123Z'), extra: { tier: 2, tags: ['a'] },
});

for (const db of testDatabases('direct_insert')) {
  const log: string[] = [];
  let sequelize: Sequelize;
  let adapter: SequelizeAdapter;
  let Badge: ModelStatic<Model>;
  let Holder: ModelStatic<Model>;

  test.before(async () => {
    sequelize = await openDatabase(db, undefined, { logging: (sql) => void log.push(sql) });
    ({ Badge, Holder } = defineModels(sequelize));
    await sequelize.sync({ force: true });
    adapter = new SequelizeAdapter({ name: 'BadgeResource', model: Badge } as never);
  });
  test.after.always(() => sequelize?.close());

  /** Saves a new Badge through the adapter, in a transaction of its own. */
  const saveNew = (values: Record<string, unknown>, model: ModelStatic<Model> = Badge) =>
    adapter.transaction(async (transaction) => adapter.save(model.build(values), transaction));

  test.serial(`${db.name}: the row and the instance are those record.save() leaves`, async (t) => {
    const counter = countQueryCalls(sequelize);
    const direct = await saveNew(attributes('direct')).finally(() => counter.restore());
    const saved = await adapter.transaction((transaction) => Badge.build(attributes('saved')).save({ transaction: transaction as never }));
    t.true(counter.calls <= 2, 'only BEGIN and COMMIT went through sequelize.query');
    const shape = (record: Model) => {
      const { id, code, createdAt, updatedAt, ...rest } = record.get({ plain: true }) as Record<string, unknown>;
      return { rest, id: typeof id, created: createdAt instanceof Date, updated: updatedAt instanceof Date, changed: record.changed(), isNew: record.isNewRecord };
    };
    t.deepEqual(shape(direct), shape(saved));
    t.is(Object.keys((direct as unknown as { _previousDataValues: object })._previousDataValues).sort().join(), Object.keys((saved as unknown as { _previousDataValues: object })._previousDataValues).sort().join());
    const read = await Badge.findByPk(direct.get('id') as number);
    t.deepEqual(shape(read!).rest, shape((await Badge.findByPk(saved.get('id') as number))!).rest);
    // MySQL's DATETIME keeps whole seconds
    t.true(Math.abs((read!.get('updatedAt') as Date).getTime() - (direct.get('updatedAt') as Date).getTime()) < 1000);
    t.is(read!.get('code'), 'direct');
  });

  test.serial(`${db.name}: the INSERT is logged as Sequelize logs it`, async (t) => {
    const direct: string[] = [];
    const saved: string[] = [];
    await adapter.transaction(async (transaction) => {
      log.length = 0;
      await adapter.save(Badge.build({ code: 'log-direct', label: 'x' }), transaction);
      direct.push(...log);
      log.length = 0;
      await Badge.build({ code: 'log-saved', label: 'x' }).save({ transaction: transaction as never });
      saved.push(...log);
    });
    t.is(direct.length, 1);
    t.deepEqual(direct, saved);
  });

  test.serial(`${db.name}: a duplicate is Sequelize's UniqueConstraintError, which the adapter calls taken`, async (t) => {
    await saveNew({ code: 'twice' });
    const error = await t.throwsAsync(saveNew({ code: 'twice' }), { instanceOf: UniqueConstraintError });
    t.deepEqual(adapter.validationProblems(error)?.map((p) => p.code), ['taken']);
    t.is(await Badge.count({ where: { code: 'twice' } }), 1);
  });

  test.serial(`${db.name}: a missing parent is Sequelize's ForeignKeyConstraintError, and nothing is written`, async (t) => {
    await t.throwsAsync(saveNew({ code: 'orphan', holder_id: 999_999 }), { instanceOf: ForeignKeyConstraintError });
    t.is(await Badge.count({ where: { code: 'orphan' } }), 0);
  });

  test.serial(`${db.name}: a model with a save hook keeps Sequelize's path, and the hook runs`, async (t) => {
    Holder.addHook('beforeCreate', 'shout', (record: Model) => void record.set('name', String(record.get('name')).toUpperCase()));
    try {
      const holder = await adapter.transaction((transaction) => adapter.save(Holder.build({ name: 'quiet' }), transaction));
      t.is((await Holder.findByPk(holder.get('id') as number))!.get('name'), 'QUIET');
    } finally {
      Holder.removeHook('beforeCreate', 'shout');
    }
    const plain = await adapter.transaction((transaction) => adapter.save(Holder.build({ name: 'quiet' }), transaction));
    t.is((await Holder.findByPk(plain.get('id') as number))!.get('name'), 'quiet');
  });

  test.serial(`${db.name}: a model class that overrides save() has it called`, async (t) => {
    const calls: string[] = [];
    class Audited extends Model {
      override save(options?: SaveOptions) {
        calls.push(this.isNewRecord ? 'create' : 'update');
        return super.save(options);
      }
    }
    Audited.init({ name: DataTypes.STRING }, { sequelize, tableName: 'direct_audited', timestamps: false });
    await Audited.sync({ force: true });
    const record = await adapter.transaction((transaction) => adapter.save(Audited.build({ name: 'new' }), transaction));
    await adapter.transaction((transaction) => adapter.save(record.set('name', 'changed'), transaction));
    t.deepEqual(calls, ['create', 'update']);
    t.is((await Audited.findByPk(record.get('id') as number))!.get('name'), 'changed');
  });

  test.serial(`${db.name}: a table that is not there is a DatabaseError, not a hang`, async (t) => {
    class Missing extends Model {}
    Missing.init({ name: DataTypes.STRING }, { sequelize, tableName: 'direct_nowhere', timestamps: false });
    await t.throwsAsync(saveNew({ name: 'lost' }, Missing), { instanceOf: DatabaseError });
    t.truthy(await saveNew({ code: 'after-missing' }), 'the next write goes on');
  });
}

test.serial('sqlite file: kept statements are finalized, so the database closes, past the cache bound (128) too', async (t) => {
  const file = sqliteFileDatabase();
  t.teardown(() => file.remove());
  const sequelize = await openDatabase(file as TestDatabase, undefined, { logging: false });
  const models = Array.from({ length: 140 }, (_, i) => {
    class Shape extends Model {}
    Shape.init({ name: DataTypes.STRING }, { sequelize, modelName: `Shape${i}`, tableName: `direct_shape_${i}`, timestamps: false });
    return Shape;
  });
  await sequelize.sync();
  const adapter = new SequelizeAdapter({ name: 'ShapeResource', model: models[0] } as never);
  for (let round = 0; round < 2; round++) {
    await adapter.transaction(async (transaction) => {
      for (const model of models) await adapter.save(model.build({ name: `round ${round}` }), transaction);
    });
  }
  t.deepEqual(await Promise.all(models.map((model) => model.count())), models.map(() => 2));
  await t.notThrowsAsync(sequelize.close());
});
