/**
 * The types users of `mural/sequelize` get: scopes in custom filters, sorts
 * and base scopes, the LIKE helpers and the SQLite settings from the README
 * compile, and each mistake below stays a compile error. Only compiled,
 * never run (see core.test-d.ts).
 */
import { expectTypeOf } from 'expect-type';
import { DataTypes, Model, Op, Sequelize, type CreationOptional, type InferAttributes, type InferCreationAttributes, type ModelStatic, type WhereOptions } from 'sequelize';
import { readsOwnWrites, Resource, withOwnWrites, type Adapter, type AdapterClass } from 'mural';
import {
  configureReplicas, REPLICA_DEFAULTS, type ReplicaSettings,
  configureSqlite, likeCondition, SequelizeAdapter, SequelizeScope, SQLITE_DEFAULTS, textCondition,
  type SqliteSettings, type TextOperator,
} from 'mural/sequelize';

const sequelize = new Sequelize('sqlite::memory:', { logging: false });

class Employee extends Model<InferAttributes<Employee>, InferCreationAttributes<Employee>> {
  declare id: CreationOptional<number>;
  declare first_name: string;
  declare last_name: string;
  declare age: number | null;
}
Employee.init(
  {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    first_name: DataTypes.STRING,
    last_name: DataTypes.STRING,
    age: DataTypes.INTEGER,
  },
  { sequelize },
);

// Scopes (README): immutable and chainable, extended with plain Sequelize conditions
const scope = SequelizeScope.of(Employee);
expectTypeOf(scope).toEqualTypeOf<SequelizeScope<Employee>>();
expectTypeOf(scope.model).toEqualTypeOf<ModelStatic<Employee>>();
const narrowed = scope.where({ age: { [Op.gte]: 30 } }).order(['last_name', 'ASC']).limit(20).offset(0).include().attributes(['id', 'age']);
expectTypeOf(narrowed).toEqualTypeOf<SequelizeScope<Employee>>();
narrowed.options({ paranoid: false }).annotate(Sequelize.literal('1'), 'one');
expectTypeOf(narrowed.findOptions.where).toEqualTypeOf<WhereOptions | undefined>();

// LIKE in custom filters (README)
class EmployeeResource extends Resource {
  static {
    this.adapter = SequelizeAdapter;
    this.model = Employee;
    this.filter('name', 'string', { only: ['eq', 'prefix'] }, {
      eq: (scope: SequelizeScope, names: string[]) =>
        scope.where({ [Op.or]: [textCondition(scope.model, 'first_name', 'eq', names), textCondition(scope.model, 'last_name', 'eq', names)] }),
      prefix: (scope: SequelizeScope, values: string[]) =>
        scope.where({ [Op.or]: values.flatMap((v) => [likeCondition(scope.model, 'first_name', 'prefix', v), likeCondition(scope.model, 'last_name', 'prefix', v)]) }),
    });
  }
  override baseScope(): SequelizeScope {
    return (super.baseScope() as SequelizeScope).where({ age: { [Op.ne]: null } });
  }
}
expectTypeOf(EmployeeResource.adapter).toEqualTypeOf<AdapterClass | undefined>();
expectTypeOf(new SequelizeAdapter(EmployeeResource)).toExtend<Adapter<SequelizeScope, Model>>();
expectTypeOf<TextOperator>().toEqualTypeOf<'eq' | 'eql' | 'prefix' | 'suffix' | 'match'>();

// SQLite (README)
configureSqlite(sequelize, { writeQueueTimeout: 10_000, busyTimeout: 5000 });
configureSqlite(sequelize, { wal: false, retryAfter: 2, writeQueueLength: 100 });
configureSqlite(sequelize);
expectTypeOf(SQLITE_DEFAULTS).toEqualTypeOf<Readonly<SqliteSettings>>();

// Read replicas (README, Running in production)
configureReplicas(sequelize, { retryAfter: 5000 });
configureReplicas(sequelize);
expectTypeOf(REPLICA_DEFAULTS).toEqualTypeOf<Readonly<ReplicaSettings>>();
expectTypeOf(withOwnWrites(async () => 1)).toEqualTypeOf<Promise<number>>();
expectTypeOf(readsOwnWrites()).toEqualTypeOf<boolean>();
// @ts-expect-error retryAfter is milliseconds
configureReplicas(sequelize, { retryAfter: '5s' });

// Mistakes that must not compile

// @ts-expect-error a misspelt setting
configureSqlite(sequelize, { busytimeout: 5000 });
// @ts-expect-error wal is a boolean
configureSqlite(sequelize, { wal: 'on' });
// @ts-expect-error likeCondition builds prefix, suffix or match patterns
likeCondition(Employee, 'first_name', 'eq', 'Ada');
// @ts-expect-error not a string operator
textCondition(Employee, 'first_name', 'contains', ['Ada']);
// @ts-expect-error a scope's conditions are Sequelize where options
scope.where('age > 30');
// @ts-expect-error limit takes a number
scope.limit('20');
