import test from 'ava';
import { DatabaseError, DataTypes, Model, QueryTypes, type Sequelize } from 'sequelize';
import { Resource } from '../../../core/index.ts';
import { SequelizeAdapter } from '../../../plugins/sequelize/index.ts';
import { selectThroughDriver } from '../../../plugins/sequelize/driver-select.ts';
import { openDatabase, testDatabases } from '../../support/databases.ts';

/**
 * Render-only reads run their SELECT on Sequelize's connection through the
 * driver itself. Nothing a user can see may change: the rows, the query log,
 * transactions, query hooks and errors.
 */
for (const db of testDatabases('driver_select')) {
  let sequelize: Sequelize;
  const log: string[] = [];
  class Sample extends Model {}
  class SampleResource extends Resource {}

  test.before(async () => {
    sequelize = await openDatabase(db, undefined, { logging: (sql) => void log.push(sql) });
    Sample.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        label: DataTypes.STRING,
        flag: DataTypes.BOOLEAN,
        amount: DataTypes.DECIMAL(10, 2),
        ratio: DataTypes.FLOAT,
        born: DataTypes.DATEONLY,
        seen: DataTypes.DATE,
        nothing: DataTypes.STRING,
      },
      { sequelize, tableName: 'samples', timestamps: false },
    );
    await sequelize.sync({ force: true });
    await Sample.bulkCreate([
      { label: 'first', flag: true, amount: '12.50', ratio: 0.25, born: '1990-02-03', seen: new Date('2024-05-06T07:08:09.123Z'), nothing: null },
      { label: 'second', flag: false, amount: '0.10', ratio: -1.5, born: '2001-12-31', seen: new Date('2020-01-01T00:00:00.000Z'), nothing: null },
    ]);
    Object.assign(SampleResource, { adapter: SequelizeAdapter, model: Sample, type: 'samples' });
    SampleResource.attribute('label', 'string');
    SampleResource.attribute('flag', 'boolean');
    SampleResource.attribute('seen', 'datetime');
  });
  test.after.always(() => sequelize?.close());

  const sql = () => `SELECT * FROM ${sequelize.getQueryInterface().quoteIdentifier('samples')} ORDER BY id`;

  test.serial(`${db.name}: rows are exactly those sequelize.query returns`, async (t) => {
    const expected = await sequelize.query(sql(), { type: QueryTypes.SELECT });
    const rows = await selectThroughDriver(sequelize, sql(), undefined);
    t.deepEqual(JSON.parse(JSON.stringify(rows)), JSON.parse(JSON.stringify(expected)));
    t.deepEqual(rows.map((row) => typeof row.flag), expected.map((row) => typeof (row as { flag: unknown }).flag));
  });

  test.serial(`${db.name}: every query is logged as sequelize.query logs it`, async (t) => {
    log.length = 0;
    await selectThroughDriver(sequelize, sql(), undefined);
    t.deepEqual(log, [`Executing (default): ${sql()}`]);
  });

  test.serial(`${db.name}: a read inside a transaction sees that transaction's writes`, async (t) => {
    await sequelize.transaction(async (transaction) => {
      await Sample.create({ label: 'uncommitted' }, { transaction });
      const rows = await selectThroughDriver(sequelize, sql(), transaction);
      t.true(rows.some((row) => row.label === 'uncommitted'));
      throw new Error('roll back');
    }).catch(() => undefined);
    t.false((await selectThroughDriver(sequelize, sql(), undefined)).some((row) => row.label === 'uncommitted'));
  });

  test.serial(`${db.name}: query hooks still see every read`, async (t) => {
    const seen: string[] = [];
    sequelize.addHook('beforeQuery', 'spy', (_options, query) => void seen.push((query as { sql?: string }).sql ?? 'query'));
    try {
      const document = await SampleResource.all({ sort: 'id' }).toJsonapi();
      t.is((document.data as unknown[]).length, 2);
      t.true(seen.length >= 1, 'the hook ran for the read');
    } finally {
      sequelize.removeHook('beforeQuery', 'spy');
    }
  });

  test.serial(`${db.name}: a failing SELECT rejects with Sequelize's DatabaseError, in or out of a transaction`, async (t) => {
    const bad = 'SELECT no_such_column FROM samples';
    await t.throwsAsync(selectThroughDriver(sequelize, bad, undefined), { instanceOf: DatabaseError });
    await t.throwsAsync(
      sequelize.transaction((transaction) => selectThroughDriver(sequelize, bad, transaction)),
      { instanceOf: DatabaseError },
    );
  });

  test.serial(`${db.name}: a pagination total counts through the driver`, async (t) => {
    const request = { path: '/samples', query: 'page[size]=1', action: 'index' as const };
    log.length = 0;
    const document = await SampleResource.all({ page: { size: 1 } }, undefined, { request }).toJsonapi();
    t.regex(String((document.links as { last?: string }).last), /page(%5B|\[)number(%5D|\])=2/);
    t.true(log.some((line) => /count\(\*\)/i.test(line)), 'the count ran');
  });
}

test('benchmark logging keeps its own format, through sequelize.query', async (t) => {
  const lines: string[] = [];
  const sequelize = await openDatabase({ name: 'sqlite', url: ':memory:' }, 'driver_select_benchmark', { benchmark: true, logging: (sql) => void lines.push(sql) });
  try {
    t.deepEqual(await selectThroughDriver(sequelize, 'SELECT 1 AS one', undefined), [{ one: 1 }]);
    t.is(lines.length, 1);
    t.regex(lines[0]!, /^Executed \(default\): SELECT 1 AS one/);
  } finally {
    await sequelize.close();
  }
});
