/**
 * The types users of `mural` get when declaring Resources: the README's and
 * DESIGN.md's declarations compile and give blocks, guards and hooks what they
 * document, and every mistake below stays a compile error (`@ts-expect-error`
 * fails the build once its line compiles). In-process queries and writes are
 * in core-in-process.test-d.ts. Only compiled, never run: `npx tsc --noEmit
 * -p .` checks these files in `npm test`. They import nothing but package
 * names, so they also compile in an application that installed the packed
 * `mural` (module nodenext, strict).
 */
import { expectTypeOf } from 'expect-type';
import {
  DataTypes, Model, Op, Sequelize,
  type CreationOptional, type ForeignKey, type InferAttributes, type InferCreationAttributes,
} from 'sequelize';
import { renderMermaid, renderSvg, resourceGraph, visibleSchema, type ResourceGraph, type Schema } from 'mural';
import { DATABASE_CHANNEL, withDatabaseLog, type DatabaseEvent, type DatabaseOperation, type JsonApiDocument } from 'mural';
import { buildOpenApi, buildSchema, Resource, Types, type OpenApiDocument, type OpenApiInfo, type TypeDefinition, type TypeName } from 'mural';
import { SequelizeAdapter, type SequelizeScope, likeCondition, textCondition } from 'mural/sequelize';

// What an application declares once, in a file of its own: the names of the types it registers.
declare module 'mural' {
  interface TypeNames {
    money: true;
  }
}

const sequelize = new Sequelize('sqlite::memory:', { logging: false });

class Employee extends Model<InferAttributes<Employee>, InferCreationAttributes<Employee>> {
  declare id: CreationOptional<number>;
  declare first_name: string;
  declare last_name: string;
  declare age: number | null;
  declare salary: string | null;
  declare created_at: CreationOptional<Date>;
}
Employee.init(
  {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    first_name: { type: DataTypes.STRING, allowNull: false },
    last_name: { type: DataTypes.STRING, allowNull: false },
    age: DataTypes.INTEGER,
    salary: DataTypes.DECIMAL(10, 2),
    created_at: DataTypes.DATE,
  },
  { sequelize, tableName: 'employees', createdAt: 'created_at', updatedAt: false },
);

class Position extends Model<InferAttributes<Position>, InferCreationAttributes<Position>> {
  declare id: CreationOptional<number>;
  declare title: string;
  declare active: boolean;
  declare employee_id: ForeignKey<number>;
}
Position.init(
  {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    title: DataTypes.STRING,
    active: DataTypes.BOOLEAN,
  },
  { sequelize, tableName: 'positions', timestamps: false },
);

// ---------------------------------------------------------------------------
// Declaring a Resource (README)

export class ApplicationResource extends Resource {
  static {
    this.abstractClass = true;
    this.adapter = SequelizeAdapter;
    this.endpointNamespace = '/api/v1';
  }
  isAdmin() {
    return this.context?.role === 'admin';
  }
}

export class EmployeeResource extends ApplicationResource {
  static {
    this.model = Employee;
    this.type = 'employees';
    this.defaultSort = [{ last_name: 'asc' }];
    this.attribute('first_name', 'string');
    this.attribute('age', 'integer');
    this.attribute('salary', 'big_decimal', { readable: 'isAdmin', filterable: 'isAdmin' });
    this.attribute('created_at', 'datetime', { writable: false });
    this.attribute('full_name', 'string', { only: ['readable'] }, (employee: Employee) => `${employee.first_name} ${employee.last_name}`);
    this.extraAttribute('vacation_days', 'integer', (e: Employee) => 20 + Math.floor((e.age ?? 30) / 10));
    this.filter('name', 'string', { only: ['eq'] }, {
      eq: (scope: SequelizeScope, names: string[]) => scope.where({ [Op.or]: [{ first_name: names }, { last_name: names }] }),
    });
    this.sort('name', 'string', (scope: SequelizeScope, dir) => scope.order(['last_name', dir], ['first_name', dir]));
    this.stat({ age: ['average', 'sum', 'maximum', 'minimum'] });

    // Relationships (README)
    this.hasMany('positions');
    this.hasOne('current_position', { resource: 'positions', params: (p) => { p.filter = { ...p.filter, active: true }; } });
    this.manyToMany('teams', { foreignKey: { employee_teams: 'employee_id' } });
    this.polymorphicHasMany('notes', { as: 'notable', readable: 'isAdmin' });

    // LIKE in custom filters (README)
    this.filter('search', 'string', { only: ['eq', 'prefix'] }, {
      eq: (scope: SequelizeScope, names: string[]) =>
        scope.where({ [Op.or]: [textCondition(scope.model, 'first_name', 'eq', names), textCondition(scope.model, 'last_name', 'eq', names)] }),
      prefix: (scope: SequelizeScope, values: string[]) =>
        scope.where({ [Op.or]: values.flatMap((v) => [likeCondition(scope.model, 'first_name', 'prefix', v), likeCondition(scope.model, 'last_name', 'prefix', v)]) }),
    });
  }
}

export class PositionResource extends ApplicationResource {
  static {
    this.model = Position;
    this.attribute('title', 'string');
    this.attribute('active', 'boolean');
    this.filter('employee_id', 'integer_id');
    this.belongsTo('employee', { resource: () => EmployeeResource });
  }
}

// The DESIGN.md declaration: `declare static model` types every block's model without annotations.
export class DesignEmployeeResource extends ApplicationResource {
  declare static model: typeof Employee;
  static {
    this.model = Employee;
    this.type = 'employees';
    this.attribute('first_name', 'string');
    this.attribute('salary', 'big_decimal', { readable: 'isAdmin' });
    this.attribute('full_name', 'string', { writable: false }, (employee) => `${employee.first_name} ${employee.last_name}`);
    this.filter('name', 'string', { only: ['eq'] }, { eq: (scope, value) => scope });
    this.sort('name', 'string', (scope, direction) => scope);
    this.stat({ age: ['average', 'maximum'] });
    this.extraAttribute('vacation_days', 'integer');
    this.hasMany('positions');
    this.manyToMany('teams', { foreignKey: { employee_teams: 'employee_id' } });
    this.polymorphicHasMany('notes', { as: 'notable' });
    this.beforeSave((model) => { expectTypeOf(model).toEqualTypeOf<Employee>(); }, { only: ['create'] });
    this.attribute('age', 'integer', { readable: (employee, name) => employee.age !== null && name === 'age' });
  }
}

// An abstract base declares what its subclasses share
abstract class AuditedResource extends ApplicationResource {
  static {
    this.attribute('created_at', 'datetime', { writable: false });
    this.beforeSave('isAdmin');
  }
}
export class AuditedEmployeeResource extends AuditedResource {
  static {
    this.model = Employee;
  }
}
// @ts-expect-error an abstract class serves no queries
AuditedResource.all({});

// Guards, hooks and the rest of the DSL
export class GuardedResource extends ApplicationResource {
  declare static model: typeof Employee;
  static {
    this.model = Employee;
    this.guard('isAdmin', { only: ['create', 'update', 'destroy'] });
    this.guard(function () { return this.context?.role !== undefined; });
    this.attribute('notes', 'string', { writable: function (employee, name) { return this.isAdmin() && employee.id > 0 && name === 'notes'; } });
    this.attribute('balance', 'money', { sortable: 'isAdmin', filterable: 'required' });
    this.attribute('tags', 'array_of_strings', { schema: false, description: 'Free-form labels.' });
    this.attribute('state', 'string_enum', { allow: ['active', 'gone'] as const });
    this.filter('state', { allow: ['active'], single: true, allowNil: true, guard: 'isAdmin', dependent: ['name'] });
    this.filter('age', { except: ['not_eq', 'gt'] }, { between: (scope: SequelizeScope, [low, high]: number[]) => scope.where({ age: { [Op.between]: [low!, high!] } }) });
    this.sort('age', { only: 'desc' });
    this.stat('age', { median: async (scope: SequelizeScope, attribute) => (await scope.model.findAll(scope.findOptions)).length + attribute.length });
    this.stat({ total: ['count'], age: [{ spread: (scope: SequelizeScope) => scope.model.count() }] });
    this.onExtraAttribute('vacation_days', (scope: SequelizeScope) => scope.attributes(['id', 'age']));
    this.paginate((scope: SequelizeScope, number, size) => scope.limit(size).offset((number - 1) * size));
    this.primaryEndpoint('/staff', ['index', 'show']);
    this.secondaryEndpoint('/people');
    this.beforeAttributes((attributes) => { attributes.first_name ??= 'Ada'; });
    this.afterAttributes('touch', { except: ['destroy'] });
    this.aroundSave('wrapSave');
    this.beforeCommit(async (employee) => { await employee.reload(); });
    this.afterDestroy(function (employee) { return this.isAdmin() && employee.isNewRecord; });
    this.hasMany('positions', {
      foreignKey: 'employee_id',
      alwaysIncludeResourceIds: true,
      link: false,
      params: (params, parents) => { params.sort = parents.length > 1 ? '-title' : 'title'; },
      assignEach: (parent, children: Position[]) => children.filter((c) => c.employee_id === parent.id),
    });
    this.belongsTo('manager', { resource: 'EmployeeResource', foreignKey: 'manager_id', writable: false, single: true });
    this.polymorphicBelongsTo('subject', { groupBy: 'subject_type' }, (on) => {
      on('employees');
      on('positions', { resource: 'PositionResource', foreignKey: 'subject_id' });
    });
    this.defaultPageSize = 50;
    this.maxIncludedRecords = 5000;
    this.relationshipLinks = 'endpoints';
    this.polymorphic = ['EmployeeResource', () => PositionResource];
  }
  touch(employee: Employee) {
    return employee.changed();
  }
  async wrapSave(employee: Employee, proceed: () => Promise<unknown>) {
    expectTypeOf(employee).toEqualTypeOf<Employee>();
    return proceed();
  }
  override baseScope(): SequelizeScope {
    return (super.baseScope() as SequelizeScope).where({ age: { [Op.gte]: 18 } });
  }
}

// ---------------------------------------------------------------------------
// Mistakes that must not compile

export class Mistakes extends ApplicationResource {
  declare static model: typeof Employee;
  static {
    // @ts-expect-error relationship links point at filters or at endpoints
    this.relationshipLinks = 'links';
    // @ts-expect-error a misspelt type name
    this.attribute('age', 'integr');
    // @ts-expect-error a type that was never declared in TypeNames
    this.attribute('price', 'euros');
    // @ts-expect-error a misspelt type on an extra attribute
    this.extraAttribute('vacation_days', 'int');
    // @ts-expect-error a misspelt type on a filter-only attribute
    this.filter('active', 'bool');
    // @ts-expect-error a misspelt type on a sort-only attribute
    this.sort('rank', 'numbr');
    // @ts-expect-error array_of_ forms exist for the built-in scalars only
    this.attribute('flags', 'array_of_booleans');

    // @ts-expect-error a misspelt attribute option
    this.attribute('first_name', 'string', { readble: true });
    // @ts-expect-error a guard naming no method of the Resource
    this.attribute('salary', 'big_decimal', { readable: 'isAdmn' });
    // @ts-expect-error a guard returns a boolean
    this.attribute('salary', 'big_decimal', { readable: () => 'yes' });
    // @ts-expect-error a guard gets at most the model and the attribute name
    this.attribute('salary', 'big_decimal', { readable: (employee: Employee, name: string, extra: number) => extra > 0 });
    // @ts-expect-error sort guards are decided before any record is loaded: no model
    this.attribute('salary', 'big_decimal', { sortable: (employee: Employee) => employee.age === 1 });
    // @ts-expect-error only and except list flags
    this.attribute('first_name', 'string', { only: ['visible'] });
    // @ts-expect-error with the model declared, its attributes are known
    this.attribute('full_name', 'string', (employee) => employee.fullName);

    // @ts-expect-error a misspelt filter option
    this.filter('first_name', { onyl: ['eq'] });
    // @ts-expect-error only lists built-in operators
    this.filter('first_name', { only: ['equals'] });
    // @ts-expect-error a custom operator returns the narrowed scope
    this.filter('name', 'string', { eq: (scope: SequelizeScope, names: string[]) => { scope.where({ first_name: names }); } });
    // @ts-expect-error a filter guard takes no arguments
    this.filter('age', { guard: (employee: Employee) => employee.age === 1 });

    // @ts-expect-error a sort direction is asc or desc
    this.sort('age', { only: 'up' });
    // @ts-expect-error a sort block returns the ordered scope
    this.sort('name', 'string', (scope: SequelizeScope) => 'last_name');

    // @ts-expect-error not a built-in calculation
    this.stat({ age: ['averag'] });
    // @ts-expect-error stat takes calculations
    this.stat('age');

    // @ts-expect-error a misspelt relationship option
    this.hasMany('positions', { foreignkey: 'employee_id' });
    // @ts-expect-error a relationship guard takes no arguments
    this.hasMany('positions', { readable: (employee: Employee) => employee.age === 1 });
    // @ts-expect-error many_to_many names its join table: { employee_teams: 'employee_id' }
    this.manyToMany('teams', { foreignKey: 'team_id' });
    // @ts-expect-error only many_to_many names a join table; other relationships name a column
    this.hasMany('teams', { foreignKey: { employee_teams: 'employee_id' } });
    // @ts-expect-error polymorphic_has_many needs as:
    this.polymorphicHasMany('notes', {});
    // @ts-expect-error a resource thunk returns a Resource class
    this.belongsTo('employee', { resource: () => 'employees' });

    // @ts-expect-error a hook naming no method of the Resource
    this.beforeSave('saveIt');
    // @ts-expect-error around hooks take a method name, not a block
    this.aroundSave((employee: Employee) => employee);
    // @ts-expect-error hooks run on create, update or destroy
    this.beforeSave('isAdmin', { only: ['craete'] });
    // @ts-expect-error a guard naming no method of the Resource
    this.guard('isAdmn');
    // @ts-expect-error Resource guards cover actions
    this.guard('isAdmin', { only: ['list'] });
    // @ts-expect-error endpoints list actions
    this.primaryEndpoint('/staff', ['index', 'patch']);
    // @ts-expect-error settings have their documented types
    this.defaultPageSize = '20';
    // @ts-expect-error a default sort direction is asc or desc
    this.defaultSort = [{ last_name: 'ascending' }];
  }
}

// ---------------------------------------------------------------------------
// Types: registering a custom type, by assignment and by name

const money: TypeDefinition = {
  params: (v) => Math.round(Number(v) * 100),
  read: (v) => `$${(Number(v) / 100).toFixed(2)}`,
  write: (v) => Math.round(Number(v) * 100),
  kind: 'scalar',
  canonical_name: 'money',
  description: 'An amount of money, stored in cents.',
};
Types.money = money;
Types.string.read = Types.integer.read;
expectTypeOf(Types.datetime).toEqualTypeOf<TypeDefinition>();
expectTypeOf<'money'>().toExtend<TypeName>();
expectTypeOf<'array_of_integers'>().toExtend<TypeName>();
expectTypeOf<'integr'>().not.toExtend<TypeName>();
// @ts-expect-error a type's kind is scalar, array or record
Types.cents = { ...money, kind: 'scaler' };

// ---------------------------------------------------------------------------
// OpenAPI: the document of every endpoint, from Resource classes

const openapi = buildOpenApi([EmployeeResource], { info: { title: 'Directory', version: '1.0.0' } });
expectTypeOf(openapi).toEqualTypeOf<OpenApiDocument>();
expectTypeOf(openapi.info).toEqualTypeOf<OpenApiInfo>();
expectTypeOf(openapi.paths['/api/v1/employees']?.get?.operationId).toEqualTypeOf<string | undefined>();
buildOpenApi([EmployeeResource], { servers: [{ url: '/v2' }] });
// @ts-expect-error it is built from Resource classes, not from a schema
buildOpenApi(buildSchema([EmployeeResource]));
// @ts-expect-error info needs a version
buildOpenApi([EmployeeResource], { info: { title: 'Directory' } });

// ---------------------------------------------------------------------------
// Relationship diagrams, and the schema as one request may use it

const graph = resourceGraph(buildSchema([EmployeeResource]));
expectTypeOf(graph).toEqualTypeOf<ResourceGraph>();
expectTypeOf(renderSvg(graph)).toEqualTypeOf<string>();
expectTypeOf(renderMermaid(graph)).toEqualTypeOf<string>();
expectTypeOf(visibleSchema([EmployeeResource])).toEqualTypeOf<Schema>();
// @ts-expect-error a graph is drawn from a schema, not from Resource classes
resourceGraph([EmployeeResource]);

// the mural:database channel: what a subscriber receives, and collecting one piece of work's operations
const databaseLog: DatabaseEvent[] = [];
expectTypeOf(withDatabaseLog(databaseLog, () => EmployeeResource.all({}).toJsonapi())).toEqualTypeOf<Promise<JsonApiDocument>>();
expectTypeOf<typeof DATABASE_CHANNEL>().toEqualTypeOf<'mural:database'>();
expectTypeOf<DatabaseEvent['operation']>().toEqualTypeOf<DatabaseOperation>();
expectTypeOf<DatabaseEvent>().toHaveProperty('duration').toEqualTypeOf<number>();
