/**
 * The types users of `mural` get from in-process queries and writes: the
 * README's and DESIGN.md's examples compile and give back what they document,
 * and each mistake below stays a compile error. Only compiled, never run (see
 * core.test-d.ts).
 */
import { expectTypeOf } from 'expect-type';
import { DataTypes, Model, Op, Sequelize, type CreationOptional, type InferAttributes, type InferCreationAttributes } from 'sequelize';
import {
  configure, context, Forbidden, MuralError, RecordNotFound, RelationshipNotFound, RelationshipWrite, Resource, ResourceProxy, TypeCoercionError, ValidationFailed,
  withContext, WriteProxy, type JsonApiDocument, type JsonApiErrorObject, type LinkageDocument, type MuralConfig, type QueryParams, type RelationshipPayload,
  type ResourceObject, type SimpleJsonDocument, type StatsResult, type WritePayload,
  PreconditionFailed, type WriteOptions,
} from 'mural';
import { SequelizeAdapter, SequelizeScope } from 'mural/sequelize';

// What an application declares once, in a file of its own: the context keys it sets.
declare module 'mural' {
  interface MuralContext {
    role?: string;
  }
}

const sequelize = new Sequelize('sqlite::memory:', { logging: false });

class Employee extends Model<InferAttributes<Employee>, InferCreationAttributes<Employee>> {
  declare id: CreationOptional<number>;
  declare first_name: string;
  declare age: number | null;
}
Employee.init(
  { id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true }, first_name: DataTypes.STRING, age: DataTypes.INTEGER },
  { sequelize, tableName: 'employees' },
);

class ApplicationResource extends Resource {
  static {
    this.abstractClass = true;
    this.adapter = SequelizeAdapter;
  }
}

/** As the README declares it: `data` is unknown. */
class EmployeeResource extends ApplicationResource {
  static {
    this.model = Employee;
    this.type = 'employees';
    this.attribute('first_name', 'string');
    this.attribute('age', 'integer');
    this.hasMany('positions');
    this.hasOne('current_position', { resource: 'positions' });
  }
}

/** The same, with the type of its model declared: `data` is the model. */
class TypedEmployeeResource extends EmployeeResource {
  declare static model: typeof Employee;
}

// ---------------------------------------------------------------------------
// In-process queries (README, DESIGN.md)

async function inProcess() {
  const proxy = EmployeeResource.all({ filter: { age: { gte: 30 } }, sort: '-age', page: { size: 5 }, stats: { total: 'count' } });
  expectTypeOf(proxy).toEqualTypeOf<ResourceProxy<unknown, unknown[]>>();
  expectTypeOf(await proxy.data).toEqualTypeOf<unknown[]>();
  expectTypeOf(await proxy.stats).toEqualTypeOf<StatsResult>();
  expectTypeOf(await proxy.toJsonapi()).toEqualTypeOf<JsonApiDocument>();
  expectTypeOf(await proxy.toJson()).toEqualTypeOf<SimpleJsonDocument>();
  expectTypeOf(await proxy.toXml()).toEqualTypeOf<string>();

  // with the model declared, data and iteration are the model
  const employees = await TypedEmployeeResource.all({ include: 'positions' }).data;
  expectTypeOf(employees).toEqualTypeOf<Employee[]>();
  for await (const employee of TypedEmployeeResource.all({})) expectTypeOf(employee).toEqualTypeOf<Employee>();
  const one = await TypedEmployeeResource.find({ id: 1 }).data;
  expectTypeOf(one).toEqualTypeOf<Employee>();

  const body = await EmployeeResource.all({ include: ['positions'], fields: { employees: 'first_name,age' }, extra_fields: { employees: ['vacation_days'] } }).toJsonapi();
  expectTypeOf(body.data).toEqualTypeOf<ResourceObject | ResourceObject[] | null>();
  expectTypeOf(body.included).toEqualTypeOf<ResourceObject[] | undefined>();
  expectTypeOf(body.meta).toEqualTypeOf<Record<string, unknown>>();

  await EmployeeResource.find({ id: 1 }).data;
  await EmployeeResource.find({ id: '1', include: 'positions' }).toJsonapi();
  expectTypeOf(await withContext({ role: 'admin' }, () => EmployeeResource.all({}).toJsonapi())).toEqualTypeOf<JsonApiDocument>();
  EmployeeResource.all({}, SequelizeScope.of(Employee).where({ age: { [Op.gte]: 30 } }));   // a second argument replaces the base scope
  EmployeeResource.all({ filter: { 'positions.title': 'Engineer' }, page: { positions: { size: 2 }, number: '2' }, stats: { positions: { total: 'count' } } });
  expectTypeOf(context()?.role).toEqualTypeOf<string | undefined>();

  const params: QueryParams = { sort: ['-age', 'last_name'] };
  EmployeeResource.all(params);

  // @ts-expect-error a misspelt query parameter
  EmployeeResource.all({ fitler: { age: 30 } });
  // @ts-expect-error page sizes are numbers, or their digits as a URL carries them
  EmployeeResource.all({ page: { size: 'x' } });
  // @ts-expect-error include names relationships: a string or a list
  EmployeeResource.all({ include: { positions: true } });
  // @ts-expect-error sort is a string or a list
  EmployeeResource.all({ sort: 5 });
  // @ts-expect-error find needs an id
  EmployeeResource.find({});
  // @ts-expect-error withContext runs a function
  withContext({ role: 'admin' }, EmployeeResource.all({}));
  // @ts-expect-error a context key the application typed
  withContext({ role: 1 }, () => undefined);
}

// ---------------------------------------------------------------------------
// Writes (README)

async function writes() {
  const created = EmployeeResource.build({
    data: {
      type: 'employees',
      attributes: { first_name: 'Grace', last_name: 'Hopper' },
      relationships: {
        positions: { data: [{ type: 'positions', 'temp-id': 'p-1', method: 'create' }] },
        teams: { data: [{ type: 'teams', id: '2' }] },
      },
    },
    included: [{ type: 'positions', 'temp-id': 'p-1', attributes: { title: 'Admiral' } }],
  });
  expectTypeOf(created).toEqualTypeOf<WriteProxy<unknown>>();
  expectTypeOf(await created.save()).toEqualTypeOf<boolean>();
  if (!(await created.save())) expectTypeOf(created.errors).toEqualTypeOf<JsonApiErrorObject[]>();
  expectTypeOf(await created.toJsonapi()).toEqualTypeOf<JsonApiDocument>();

  const proxy = EmployeeResource.find({ id: 1 });
  expectTypeOf(await proxy.update({ data: { type: 'employees', id: '1', attributes: { age: 37 } } })).toEqualTypeOf<boolean>();
  expectTypeOf(await proxy.destroy()).toEqualTypeOf<boolean>();
  await EmployeeResource.find({ id: 1 }).update({ type: 'employees', id: 1, relationships: { current_position: { data: null } } });

  const typed = TypedEmployeeResource.build({ data: { type: 'employees', attributes: { first_name: 'Ada' } } });
  if (await typed.save()) expectTypeOf(typed.data).toEqualTypeOf<Employee | undefined>();

  const stored: WritePayload = { data: { type: 'employees', attributes: {} } };
  EmployeeResource.build(stored);

  // @ts-expect-error a record needs its type
  EmployeeResource.build({ data: { attributes: { first_name: 'Ada' } } });
  // @ts-expect-error a misspelt member
  EmployeeResource.build({ data: { type: 'employees', atributes: { first_name: 'Ada' } } });
  // @ts-expect-error a sideposting method is create, update, destroy or disassociate
  EmployeeResource.build({ data: { type: 'employees', relationships: { positions: { data: [{ type: 'positions', id: '1', method: 'delete' }] } } } });
  // @ts-expect-error relationships carry data
  EmployeeResource.build({ data: { type: 'employees', relationships: { positions: [{ type: 'positions', id: '1' }] } } });
}

// ---------------------------------------------------------------------------
// Relationships of one record (README: Relationship endpoints)

async function relationships() {
  const related = EmployeeResource.find({ id: 1 }).related('positions', { filter: { active: true }, sort: '-rank', page: { size: 5 }, include: 'department' });
  expectTypeOf(related).toEqualTypeOf<ResourceProxy<unknown, unknown>>();
  expectTypeOf(await related.toJsonapi()).toEqualTypeOf<JsonApiDocument>();
  const linkage = await related.toLinkage();
  expectTypeOf(linkage).toEqualTypeOf<LinkageDocument>();
  expectTypeOf(linkage.data).toEqualTypeOf<{ type: string; id: string } | Array<{ type: string; id: string }> | null>();

  const proxy = EmployeeResource.find({ id: 1 });
  expectTypeOf(await proxy.addToRelationship('teams', { data: [{ type: 'teams', id: 2 }] })).toEqualTypeOf<boolean>();
  await proxy.removeFromRelationship('teams', { data: [{ type: 'teams', id: '2' }] });
  await proxy.replaceRelationship('current_position', { data: null });
  const stored: RelationshipPayload = { data: { type: 'positions', id: '3' } };
  await proxy.replaceRelationship('current_position', stored);
  const write = new RelationshipWrite(EmployeeResource, '1', 'teams', 'add', { data: [] });
  if (await write.save()) expectTypeOf(await write.asRequested()).toEqualTypeOf<boolean>();
  else expectTypeOf(write.errors).toEqualTypeOf<JsonApiErrorObject[]>();
  expectTypeOf(new RelationshipNotFound('employees', 'bosses')).toExtend<MuralError>();

  // @ts-expect-error a relationship write takes a document: identifiers under data
  await proxy.addToRelationship('teams', [{ type: 'teams', id: 2 }]);
  // @ts-expect-error identifiers name existing records by id
  await proxy.addToRelationship('teams', { data: [{ type: 'teams', 'temp-id': 't-1' }] });
  // @ts-expect-error the operations are replace, add and remove
  new RelationshipWrite(EmployeeResource, '1', 'teams', 'append', { data: [] });
}

// ---------------------------------------------------------------------------
// Errors and configure

async function errors() {
  try {
    await EmployeeResource.find({ id: 404 }).data;
  } catch (error) {
    if (error instanceof RecordNotFound) {
      expectTypeOf(error).toExtend<MuralError>();
      expectTypeOf(error.status).toEqualTypeOf<number>();
      expectTypeOf(error.toJsonapi()).toEqualTypeOf<{ errors: JsonApiErrorObject[] }>();
    }
    if (error instanceof ValidationFailed || error instanceof Forbidden || error instanceof TypeCoercionError) {
      expectTypeOf(error.toJsonapiErrors()).toEqualTypeOf<JsonApiErrorObject[]>();
    }
  }
}

// conditional writes: the version a find reads, as ifMatch on every write to the record
async function conditionalWrites() {
  const employee = EmployeeResource.find({ id: 1 });
  const version = await employee.version();
  expectTypeOf(version).toEqualTypeOf<string | undefined>();
  const options: WriteOptions = { ifMatch: version === undefined ? '*' : [version] };
  expectTypeOf(await employee.update({ data: { type: 'employees', id: '1', attributes: { age: 40 } } }, options)).toEqualTypeOf<boolean>();
  expectTypeOf(await employee.destroy({ ifMatch: '*' })).toEqualTypeOf<boolean>();
  await employee.replaceRelationship('teams', { data: [] }, { ifMatch: ['3'] });
  // @ts-expect-error versions are strings (a list) or '*'
  await employee.destroy({ ifMatch: 3 });
  try {
    await employee.destroy(options);
  } catch (error) {
    if (error instanceof PreconditionFailed) expectTypeOf(error.toJsonapiErrors()).toEqualTypeOf<JsonApiErrorObject[]>();
  }
}

expectTypeOf(configure({ concurrency: false, maxConcurrentSideloads: 2, databaseTimeout: 5000 })).toEqualTypeOf<MuralConfig>();
// @ts-expect-error a misspelt setting
configure({ concurency: false });
// @ts-expect-error settings have their documented types
configure({ maxWriteRecords: '10' });
expectTypeOf(configure({ nestedPrefetch: 'never' })).toEqualTypeOf<MuralConfig>();
// @ts-expect-error nestedPrefetch is 'auto', 'always' or 'never'
configure({ nestedPrefetch: true });

export { conditionalWrites, errors, inProcess, relationships, writes };
