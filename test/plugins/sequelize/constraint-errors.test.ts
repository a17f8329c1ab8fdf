import test, { type ExecutionContext } from 'ava';
import express from 'express';
import { DataTypes, Model, Op, type ModelStatic, type Sequelize } from 'sequelize';
import { Resource } from '../../../core/index.ts';
import { muralRouter } from '../../../plugins/express/index.ts';
import { SequelizeAdapter } from '../../../plugins/sequelize/index.ts';
import { constraintViolation } from '../../../plugins/sequelize/constraint-errors.ts';
import { openDatabase, testDatabases } from '../../support/databases.ts';
import { serve, type HttpClient, type HttpResponse } from '../../support/http.ts';

type ErrorObject = { status: string; code: string; detail: string; source?: { pointer?: unknown }; meta?: Record<string, unknown> };

const ATOMIC = { 'content-type': 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"' };
/** What a driver or Sequelize says of a refused row, none of which is for clients. */
const DRIVER_TEXT = /constraint|SQLITE|violates|cannot be null|FOREIGN KEY|\bER_|\bINSERT\b|\bDELETE\b|\bUPDATE\b|Sequelize|must be unique|gadgets_|gadget_limits/i;

/**
 * Shelves and their gadgets, with every kind of constraint the database
 * enforces and the models leave to it: `gadgets.code` unique, `label` and
 * `shelf_id` NOT NULL, `weight` checked by a constraint named after it
 * (`gadgets_weight_check`), every column by one that names none
 * (`gadget_limits`), and `shelf_id` a foreign key to shelves (RESTRICT).
 * The runtime models declare none of it, so each refusal comes from the
 * database, the way a schema that drifted from its models refuses.
 * Gadgets 1 (`G-1`) and 2 (`G-2`) are on shelf 1; shelf 2 is empty.
 */
async function defineShelves(sequelize: Sequelize) {
  const strict = { sequelize, timestamps: false };
  class ShelfTable extends Model {}
  ShelfTable.init({ id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true }, name: DataTypes.STRING }, { ...strict, modelName: 'ShelfTable', tableName: 'shelves' });
  class GadgetTable extends Model {}
  GadgetTable.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      code: { type: DataTypes.STRING(20), unique: true },
      label: { type: DataTypes.STRING, allowNull: false },
      weight: DataTypes.INTEGER,
      shelf_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'shelves', key: 'id' }, onDelete: 'RESTRICT' },
    },
    { ...strict, modelName: 'GadgetTable', tableName: 'gadgets' },
  );
  await sequelize.sync({ force: true });
  const queries = sequelize.getQueryInterface();
  await queries.addConstraint('gadgets', { type: 'check', fields: ['weight'], name: 'gadgets_weight_check', where: { weight: { [Op.gte]: 0 } } });
  await queries.addConstraint('gadgets', { type: 'check', fields: ['weight'], name: 'gadget_limits', where: { weight: { [Op.lte]: 1000 } } });

  class Shelf extends Model {}
  Shelf.init({ id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true }, name: DataTypes.STRING }, { ...strict, modelName: 'Shelf', tableName: 'shelves' });
  class Gadget extends Model {
    declare id: number;
  }
  Gadget.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      code: DataTypes.STRING(20),
      label: DataTypes.STRING,
      weight: DataTypes.INTEGER,
      shelf_id: { type: DataTypes.INTEGER, references: { model: 'shelves', key: 'id' } },
    },
    { ...strict, modelName: 'Gadget', tableName: 'gadgets' },
  );
  // one at a time and without ids, so the keys are 1 and 2 and PostgreSQL's sequences know it
  for (const name of ['Top', 'Empty']) await Shelf.create({ name });
  for (const [code, label] of [['G-1', 'Lamp'], ['G-2', 'Fan']]) await Gadget.create({ code, label, weight: 3, shelf_id: 1 });
  return { Shelf, Gadget };
}

function shelfResources(models: Awaited<ReturnType<typeof defineShelves>>) {
  class ShelfResource extends Resource {
    static {
      this.adapter = SequelizeAdapter;
      this.model = models.Shelf;
      this.type = 'shelves';
      this.attribute('name', 'string');
      // by class, not by type: each database's Resources share their types with the others'
      this.hasMany('gadgets', { resource: () => GadgetResource, foreignKey: 'shelf_id' });
    }
  }
  class GadgetResource extends Resource {
    static {
      this.adapter = SequelizeAdapter;
      this.model = models.Gadget;
      this.type = 'gadgets';
      this.attribute('code', 'string');
      this.attribute('label', 'string');
      this.attribute('weight', 'integer');
      this.belongsTo('shelf', { resource: () => ShelfResource, foreignKey: 'shelf_id' });
    }
  }
  return [ShelfResource, GadgetResource];
}

for (const db of testDatabases('constraint_errors')) {
  let sequelize: Sequelize;
  let models: Awaited<ReturnType<typeof defineShelves>>;
  let client: HttpClient;
  test.before(async () => {
    sequelize = await openDatabase(db, 'constraint_errors');
    models = await defineShelves(sequelize);
    const app = express();
    app.use(muralRouter({ resources: shelfResources(models), operations: true }));
    client = await serve(app);
  });
  test.after.always(async () => {
    await client?.close();
    await sequelize?.close();
  });

  const gadget = (attributes: Record<string, unknown>) => ({
    type: 'gadgets', attributes: { label: 'Clock', weight: 1, ...attributes }, relationships: { shelf: { data: { type: 'shelves', id: '1' } } },
  });
  const counts = async () => [await models.Shelf.count(), await models.Gadget.count()];
  const errorsOf = async (t: ExecutionContext, write: () => Promise<HttpResponse>, status: number): Promise<ErrorObject[]> => {
    const before = await counts();
    const response = await write();
    t.is(response.status, status, response.text);
    t.notRegex(response.text, DRIVER_TEXT);
    t.deepEqual(await counts(), before, 'nothing written');
    return (response.body as { errors: ErrorObject[] }).errors;
  };
  /** Each way a client can write a gadget, and where its resource object is in that request. */
  const paths: Array<[string, (data: ReturnType<typeof gadget>) => Promise<HttpResponse>, string]> = [
    ['single', (data) => client.request('POST', '/gadgets', { data }), '/data'],
    ['update', (data) => client.request('PATCH', '/gadgets/2', { data: { ...data, id: '2' } }), '/data'],
    ['sidepost', (data) => client.request('PATCH', '/shelves/2', {
      data: { type: 'shelves', id: '2', relationships: { gadgets: { data: [{ type: 'gadgets', 'temp-id': 'g', method: 'create' }] } } },
      included: [{ ...data, 'temp-id': 'g', relationships: {} }],
    }), '/included/0'],
    ['atomic', (data) => client.request('POST', '/operations', { 'atomic:operations': [{ op: 'add', data: { type: 'shelves', attributes: { name: 'Rolled back' } } }, { op: 'add', data }] }, ATOMIC), '/atomic:operations/1/data'],
  ];

  test.serial(`${db.name}: the driver's errors, classified: each kind, the foreign key's side, the columns as attributes`, async (t) => {
    const refusal = (write: () => Promise<unknown>) => t.throwsAsync(write).then((error) => constraintViolation(error, models.Gadget as ModelStatic<Model>));
    const insert = (values: Record<string, unknown>) => () => models.Gadget.create({ label: 'X', shelf_id: 1, ...values });
    t.deepEqual(await refusal(insert({ code: 'G-1' })), { kind: 'unique', attributes: ['code'] });
    t.deepEqual(await refusal(insert({ label: null })), { kind: 'not_null', attributes: ['label'] });
    t.deepEqual(await refusal(insert({ weight: -1 })), { kind: 'check', attributes: ['weight'] });
    t.deepEqual(await refusal(insert({ weight: 5000 })), { kind: 'check', attributes: [] });
    const missing = await refusal(insert({ shelf_id: 99 }));
    t.like(missing, { kind: 'foreign_key' });
    // SQLite says neither side nor column: core infers the side from the write, the adapter the column from the record
    t.deepEqual(missing!.attributes, db.name === 'sqlite' ? [] : ['shelf_id']);
    const referenced = await refusal(() => models.Shelf.destroy({ where: { id: 1 } }));
    t.like(referenced, { kind: 'foreign_key', ...(db.name === 'sqlite' ? {} : { side: 'referenced' }) });
    t.is(constraintViolation(new Error('FOREIGN KEY constraint failed')), undefined, 'a message alone is not a driver error');
  });

  test.serial(`${db.name}: unique → 422 taken at the attribute, through every write path`, async (t) => {
    for (const [path, write, at] of paths) {
      const [error, ...more] = await errorsOf(t, () => write(gadget({ code: 'G-1' })), 422);
      t.is(more.length, 0, path);
      t.like(error, { status: '422', detail: 'Code has already been taken', source: { pointer: `${at}/attributes/code` } }, path);
      t.is(((error!.meta?.relationship ?? error!.meta) as { code?: string }).code, 'taken', path);
    }
  });

  test.serial(`${db.name}: NOT NULL in the database alone → 422 blank at the attribute, through every write path`, async (t) => {
    for (const [path, write, at] of paths) {
      const [error] = await errorsOf(t, () => write(gadget({ label: null })), 422);
      t.like(error, { detail: "Label can't be blank", source: { pointer: `${at}/attributes/label` } }, path);
    }
  });

  test.serial(`${db.name}: a check naming its column → 422 invalid there; one naming none → 422 at the resource object`, async (t) => {
    for (const [path, write, at] of paths) {
      const [named] = await errorsOf(t, () => write(gadget({ weight: -5 })), 422);
      t.like(named, { detail: 'Weight is invalid', source: { pointer: `${at}/attributes/weight` } }, path);
      const [unnamed] = await errorsOf(t, () => write(gadget({ weight: 5000 })), 422);
      t.like(unnamed, { detail: 'The database does not accept this record', source: { pointer: at } }, path);
    }
  });

  test.serial(`${db.name}: a relationship write the database refuses (a NOT NULL key let go) → 422 at /data, naming the member`, async (t) => {
    const [error, ...more] = await errorsOf(t, () => client.request('PATCH', '/shelves/1/relationships/gadgets', { data: [] }), 422);
    t.is(more.length, 0);
    t.like(error, { detail: "Shelf can't be blank", source: { pointer: '/data' }, meta: { relationship: { name: 'gadgets', type: 'gadgets', id: '1', code: 'blank' } } });
    const [atomic] = await errorsOf(t, () => client.request('POST', '/operations', { 'atomic:operations': [{ op: 'update', ref: { type: 'shelves', id: '1', relationship: 'gadgets' }, data: [] }] }, ATOMIC), 422);
    t.like(atomic, { source: { pointer: '/atomic:operations/0/data' } });
  });

  test.serial(`${db.name}: a delete the foreign key refuses → 409 conflict, alone and as an atomic remove`, async (t) => {
    const [error] = await errorsOf(t, () => client.request('DELETE', '/shelves/1'), 409);
    t.like(error, { status: '409', code: 'conflict', detail: 'shelves 1 cannot be deleted: other records refer to it' });
    const [atomic] = await errorsOf(t, () => client.request('POST', '/operations', { 'atomic:operations': [{ op: 'remove', ref: { type: 'shelves', id: '1' } }] }, ATOMIC), 409);
    t.like(atomic, { code: 'conflict' });
    t.regex(String(atomic!.source?.pointer), /^\/atomic:operations\/0/);
  });
}
