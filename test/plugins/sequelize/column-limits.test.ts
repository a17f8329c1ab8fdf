import test from 'ava';
import { DataTypes, Model, type Sequelize } from 'sequelize';
import { Resource } from '../../../core/index.ts';
import { SequelizeAdapter } from '../../../plugins/sequelize/index.ts';
import { openDatabase, testDatabases } from '../../support/databases.ts';

type Problem = { code: string; source?: { pointer?: string }; meta?: { code?: string; attribute?: string } };

/**
 * Values that do not fit their column are the client's 422, pointing at the
 * attribute, before any SQL runs — on every dialect, so SQLite (which would
 * store them) answers as PostgreSQL and MariaDB (which would fail) do.
 */
for (const db of testDatabases('column_limits')) {
  let sequelize: Sequelize;
  class Gadget extends Model {}
  class GadgetResource extends Resource {}

  test.before(async () => {
    sequelize = await openDatabase(db);
    Gadget.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        name: DataTypes.STRING,
        code: DataTypes.CHAR(3),
        count: DataTypes.INTEGER,
        small: DataTypes.SMALLINT,
        stock: DataTypes.INTEGER.UNSIGNED,
        price: DataTypes.DECIMAL(6, 2),
        notes: DataTypes.TEXT,
      },
      { sequelize, tableName: 'gadgets', timestamps: false },
    );
    await sequelize.sync({ force: true });
    Object.assign(GadgetResource, { adapter: SequelizeAdapter, model: Gadget, type: 'gadgets' });
    GadgetResource.attribute('name', 'string');
    GadgetResource.attribute('code', 'string');
    GadgetResource.attribute('count', 'integer');
    GadgetResource.attribute('small', 'integer');
    GadgetResource.attribute('stock', 'integer');
    GadgetResource.attribute('price', 'big_decimal');
    GadgetResource.attribute('notes', 'string');
  });
  test.after.always(() => sequelize?.close());

  const create = async (attributes: Record<string, unknown>) => {
    const write = GadgetResource.build({ data: { type: 'gadgets', attributes } });
    const saved = await write.save();
    return { saved, errors: write.errors as Problem[] };
  };

  const refusals: Array<[string, unknown, string]> = [
    ['name', 'x'.repeat(256), 'too_long'],
    ['name', '🙂'.repeat(256), 'too_long'],
    ['code', 'ABCD', 'too_long'],
    ['count', 2 ** 31, 'out_of_range'],
    ['count', -(2 ** 31) - 1, 'out_of_range'],
    ['small', 32768, 'out_of_range'],
    // only MySQL has unsigned columns; the other dialects make INTEGER.UNSIGNED a signed INTEGER
    ...(db.name === 'mysql' ? [['stock', -1, 'out_of_range'] as [string, unknown, string]] : [['stock', 2 ** 31, 'out_of_range'] as [string, unknown, string]]),
    ['price', '10000', 'out_of_range'],
    ['price', 9999.996, 'out_of_range'],
  ];
  for (const [attribute, value, code] of refusals) {
    test.serial(`${db.name}: ${attribute} = ${String(value).slice(0, 12)} is a 422 ${code} at its pointer, and nothing is saved`, async (t) => {
      const before = await Gadget.count();
      const { saved, errors } = await create({ [attribute]: value });
      t.false(saved);
      t.like(errors[0], { source: { pointer: `/data/attributes/${attribute}` }, meta: { code, attribute } });
      t.is(await Gadget.count(), before);
    });
  }

  test.serial(`${db.name}: values at the very edge of their column are saved`, async (t) => {
    const edge = { name: '🙂'.repeat(255), code: 'ABC', count: 2 ** 31 - 1, small: -32768, stock: db.name === 'mysql' ? 2 ** 32 - 1 : -1, price: '9999.99', notes: 'y'.repeat(60_000) };
    const { saved, errors } = await create(edge);
    t.deepEqual(errors, []);
    t.true(saved);
    const row = await Gadget.findOne({ order: [['id', 'DESC']] });
    t.is(row!.get('name'), edge.name);
    t.is(row!.get('count'), edge.count);
  });

  if (db.name !== 'sqlite') {
    test.serial(`${db.name}: a value the database itself refuses is a 422, never a 500 (the net under the column checks)`, async (t) => {
      // the model believes in 255 characters; the table was made narrower behind its back
      await Gadget.destroy({ where: {} });
      await sequelize.query(db.name === 'postgres' ? 'ALTER TABLE gadgets ALTER COLUMN name TYPE varchar(4)' : 'ALTER TABLE gadgets MODIFY name varchar(4)');
      const { saved, errors } = await create({ name: 'too wide' });
      t.false(saved);
      t.like(errors[0], { status: '422', meta: { code: 'invalid' } });
      t.false(JSON.stringify(errors).includes('varchar'));
    });
  }
}
