import { QueryTypes, Transaction, Utils, type Model, type Sequelize } from 'sequelize';
import { withinDeadline } from './database-deadline.ts';
import { logQuery, observed, type SequelizeInternals } from './driver-access.ts';
import { insertPrepared, type PreparingConnection } from './sqlite-statements.ts';

/** Hooks `Model.save` runs around an INSERT: a model (or instance) with any of them keeps Sequelize's path. */
const SAVE_HOOKS = ['beforeCreate', 'afterCreate', 'beforeSave', 'afterSave'];
const DEADLOCK = 1213;
/** What node-postgres says of a connection that cannot be used again; Sequelize then drops it from the pool. */
const BROKEN_POSTGRES_CONNECTION = /Unable to set non-blocking to true|SSL SYSCALL error: EOF detected|Local: Authentication failure/i;

type Row = Record<string, unknown>;
/** What an INSERT tells about the row it wrote: PostgreSQL returns it, SQLite and MySQL its generated key. */
interface Inserted {
  readonly row?: Row;
  readonly insertId?: unknown;
}

interface AttributeDefinition {
  field?: string;
  fieldName?: string;
  defaultValue?: unknown;
}
interface ModelInternals {
  rawAttributes: Record<string, AttributeDefinition>;
  autoIncrementAttribute?: string;
  _timestampAttributes: { createdAt?: string | false; updatedAt?: string | false };
  queryGenerator: { insertQuery(table: unknown, values: object, attributes: object, options: object): { query: string; bind?: unknown[] } };
  getTableName(): unknown;
  hasHook(name: string): boolean;
  _getDefaultTimestamp(attribute: string): unknown;
}
interface RecordInternals {
  isNewRecord: boolean;
  dataValues: Row;
  _previousDataValues: Row;
  _options: { include?: unknown[] };
  changed(key: string, value: boolean): void;
}
interface DialectQuery {
  new (connection: unknown, sequelize: Sequelize, options: object): { formatError(error: unknown, stack?: string): Error };
  formatBindParameters(sql: string, bind: unknown[], dialect: string): [string, unknown[] | Row | undefined];
}
interface TransactionInternals {
  connection?: object;
  finished?: string;
}

const INSERTERS: Record<string, (connection: never, sql: string, parameters: unknown) => Promise<Inserted>> = {
  sqlite: async (connection: PreparingConnection, sql, parameters) => ({ insertId: await insertPrepared(connection, sql, parameters) }),
  postgres: async (connection: { query(sql: string, parameters?: unknown): Promise<{ rows: Row[] }> }, sql, parameters) => {
    const result = await (parameters ? connection.query(sql, parameters) : connection.query(sql));
    return { row: result.rows[0] };
  },
  mysql: (connection: MysqlConnection, sql, parameters) =>
    new Promise((resolve, reject) => {
      const done = (error: Error | null, result: { insertId?: unknown }) => (error ? reject(error) : resolve({ insertId: result.insertId }));
      if (parameters) connection.execute(sql, parameters, done);
      else connection.query({ sql }, done);
    }),
};
interface MysqlConnection {
  execute(sql: string, parameters: unknown, done: (error: Error | null, result: { insertId?: unknown }) => void): unknown;
  query(options: { sql: string }, done: (error: Error | null, result: { insertId?: unknown }) => void): unknown;
}

/**
 * Whether `record.save()` would be a plain INSERT in `transaction` that
 * Mural can send through the driver itself: a new record of a model with no
 * save hooks, nothing observing queries, no nested include to save, on a
 * dialect Mural drives directly.
 */
export function canInsertDirectly(record: Model, transaction: unknown): transaction is Transaction {
  const instance = record as unknown as RecordInternals;
  if (!instance.isNewRecord || instance._options.include?.length) return false;
  if (!(transaction instanceof Transaction)) return false;
  const { connection, finished } = transaction as unknown as TransactionInternals;
  if (!connection || finished) return false;
  const model = record.constructor as unknown as ModelInternals;
  const sequelize = record.sequelize as unknown as Sequelize & SequelizeInternals;
  if (!INSERTERS[sequelize.getDialect()] || sequelize.options.native || observed(sequelize)) return false;
  return !SAVE_HOOKS.some((hook) => model.hasHook(hook) || sequelize.hasHook(hook));
}

/**
 * What `record.save({ transaction, validate: false })` does for a record
 * `canInsertDirectly` accepts, without its per-call cost (deep option
 * copies, hook lookups, a captured and formatted stack trace per
 * statement): the same timestamps, the same SQL and bound values from
 * Sequelize's own query generator, the same generated key or returned row
 * on the instance, the same log line, and on failure the same Sequelize
 * error (unique violations, foreign keys, deadlocks).
 */
export async function insertDirectly(record: Model, transaction: Transaction): Promise<Model> {
  const model = record.constructor as unknown as ModelInternals;
  const instance = record as unknown as RecordInternals;
  const sequelize = record.sequelize as unknown as Sequelize & SequelizeInternals;
  const dialect = sequelize.getDialect();
  const fields = Object.keys(model.rawAttributes);
  stampTimes(model, instance, dialect);
  const values = Utils.mapValueFieldNames(instance.dataValues, fields, model as never);
  const { query, bind = [] } = model.queryGenerator.insertQuery(model.getTableName(), values, model.rawAttributes, { returning: true });
  const Query = (sequelize as unknown as { dialect: { Query: DialectQuery } }).dialect.Query;
  const [sql, bound] = Query.formatBindParameters(query, bind, dialect);
  const parameters = dialect === 'sqlite' ? sqliteParameters(bound) : bound;
  const connection = (transaction as unknown as TransactionInternals).connection!;
  const run = () => {
    logQuery(sequelize, connection, sql, parameters, QueryTypes.INSERT);
    return INSERTERS[dialect]!(connection as never, sql, parameters).catch((error: unknown) => refused(record, transaction, sql, parameters, error));
  };
  adopt(record, model, await withinDeadline(sequelize, transaction, 'statement', run));
  for (const field of fields) {
    instance._previousDataValues[field] = instance.dataValues[field];
    instance.changed(field, false);
  }
  instance.isNewRecord = false;
  return record;
}

/** `createdAt` unless set, and `updatedAt`, as `save` stamps them. */
function stampTimes(model: ModelInternals, instance: RecordInternals, dialect: string): void {
  const { createdAt, updatedAt } = model._timestampAttributes;
  if (!createdAt && !updatedAt) return;
  const now = Utils.now(dialect);
  if (updatedAt) instance.dataValues[updatedAt] = model._getDefaultTimestamp(updatedAt) || now;
  if (createdAt && !instance.dataValues[createdAt]) instance.dataValues[createdAt] = model._getDefaultTimestamp(createdAt) || now;
}

/** Named `$n` parameters, bigints as text: what Sequelize's SQLite query hands the driver. */
function sqliteParameters(bound: unknown[] | Row | undefined): Row {
  const parameters: Row = Object.create(null) as Row;
  for (const [key, value] of Object.entries(bound ?? {})) parameters[key] = typeof value === 'bigint' ? value.toString() : value;
  return parameters;
}

/** The returned row (PostgreSQL) or the generated key (SQLite, MySQL) on the instance, as Sequelize's query sets them. */
function adopt(record: Model, model: ModelInternals, inserted: Inserted): void {
  const instance = record as unknown as RecordInternals;
  if (inserted.row) {
    for (const [column, value] of Object.entries(inserted.row)) {
      const attribute = Object.values(model.rawAttributes).find((a) => a.fieldName === column || a.field === column);
      instance.dataValues[attribute?.fieldName ?? column] = value;
    }
    return;
  }
  const key = model.autoIncrementAttribute;
  if (key && inserted.insertId !== undefined && inserted.insertId !== null) (record as unknown as Row)[key] = inserted.insertId;
}

/** The driver's error as the Sequelize error `save` would have thrown, after the same clean-up. */
async function refused(record: Model, transaction: Transaction, sql: string, parameters: unknown, error: unknown): Promise<never> {
  const sequelize = record.sequelize as Sequelize;
  const connection = (transaction as unknown as TransactionInternals).connection;
  const failure = error as Error & { sql?: string; parameters?: unknown; errno?: number; code?: string };
  failure.sql = sql;
  failure.parameters = parameters;
  const dialect = sequelize.getDialect();
  if (dialect === 'mysql' && failure.errno === DEADLOCK) {
    // MySQL rolled the transaction back already; Sequelize's own query marks it finished the same way
    await transaction.rollback().catch(() => undefined);
    (transaction as unknown as TransactionInternals).finished = 'rollback';
  }
  if (dialect === 'postgres' && (failure.code === 'ECONNRESET' || BROKEN_POSTGRES_CONNECTION.test(String(failure)) || failure.message === 'Query read timeout')) {
    (connection as { _invalid?: boolean })._invalid = true;
  }
  const Query = (sequelize as unknown as { dialect: { Query: DialectQuery } }).dialect.Query;
  const query = new Query(connection, sequelize, { instance: record, model: record.constructor, type: QueryTypes.INSERT, transaction, logging: false });
  throw query.formatError(failure, new Error().stack);
}
