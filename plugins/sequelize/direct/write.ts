import { Model, QueryTypes, Transaction, Utils, type Sequelize } from 'sequelize';
import { withinDeadline } from '../database-deadline.ts';
import { logQuery, observed, type SequelizeInternals } from '../driver-access.ts';
import { runPrepared, type PreparingConnection } from '../sqlite/statements.ts';

const DEADLOCK = 1213;
/** What node-postgres says of a connection that cannot be used again; Sequelize then drops it from the pool. */
const BROKEN_POSTGRES_CONNECTION = /Unable to set non-blocking to true|SSL SYSCALL error: EOF detected|Local: Authentication failure/i;

type Row = Record<string, unknown>;

/** What a write statement tells: PostgreSQL's returned row, the generated key, the rows it changed. */
export interface Written {
  readonly row?: Row;
  readonly insertId?: unknown;
  readonly changes: number;
}

export interface AttributeDefinition {
  field?: string;
  fieldName?: string;
}
/** The parts of a Sequelize model a direct write reads, as `Model.save` does. */
export interface ModelInternals {
  name: string;
  rawAttributes: Record<string, AttributeDefinition>;
  /** Attribute definitions by column name, kept by Sequelize. */
  fieldRawAttributesMap: Record<string, AttributeDefinition | undefined>;
  autoIncrementAttribute?: string;
  primaryKeyAttributes: string[];
  _versionAttribute?: string | false;
  _timestampAttributes: { createdAt?: string | false; updatedAt?: string | false };
  _virtualAttributes: Set<string>;
  queryGenerator: {
    insertQuery(table: unknown, values: object, attributes: object, options: object): { query: string; bind?: unknown[] };
    updateQuery(table: unknown, values: object, where: object, options: object, attributes: object): { query: string; bind?: unknown[] } | '';
  };
  getTableName(): unknown;
  hasHook(name: string): boolean;
  _getDefaultTimestamp(attribute: string): unknown;
}
export interface RecordInternals {
  isNewRecord: boolean;
  dataValues: Row;
  _previousDataValues: Row;
  _options: { include?: unknown[] };
  changed(): string[] | false;
  changed(key: string, value: boolean): void;
  where(checkVersion: boolean): Row;
}
interface DialectQuery {
  new (connection: unknown, sequelize: Sequelize, options: object): { formatError(error: unknown, stack?: string): Error };
  formatBindParameters(sql: string, bind: unknown[], dialect: string): [string, unknown[] | Row | undefined];
}
interface TransactionInternals {
  connection?: object;
  finished?: string;
}
interface MysqlConnection {
  execute(sql: string, parameters: unknown, done: (error: Error | null, result: MysqlResult) => void): unknown;
  query(options: { sql: string }, done: (error: Error | null, result: MysqlResult) => void): unknown;
}
interface MysqlResult {
  insertId?: unknown;
  affectedRows?: number;
}

const RUNNERS: Record<string, (connection: never, sql: string, parameters: unknown) => Promise<Written>> = {
  sqlite: async (connection: PreparingConnection, sql, parameters) => {
    const { lastID, changes } = await runPrepared(connection, sql, parameters);
    return { insertId: lastID, changes };
  },
  postgres: async (connection: { query(sql: string, parameters?: unknown): Promise<{ rows: Row[]; rowCount: number | null }> }, sql, parameters) => {
    const result = await (parameters ? connection.query(sql, parameters) : connection.query(sql));
    return { row: result.rows[0], changes: result.rowCount ?? 0 };
  },
  mysql: (connection: MysqlConnection, sql, parameters) =>
    new Promise((resolve, reject) => {
      const done = (error: Error | null, result: MysqlResult) => (error ? reject(error) : resolve({ insertId: result.insertId, changes: result.affectedRows ?? 0 }));
      if (parameters) connection.execute(sql, parameters, done);
      else connection.query({ sql }, done);
    }),
};

/**
 * Whether `record.save()` in `transaction` can be replaced by one statement
 * Mural sends through the driver: a model class that does not override
 * `save`, none of `hooks` on the model or the Sequelize instance, nothing
 * observing queries, no nested include to save, on a dialect Mural drives
 * directly.
 */
export function writesDirectly(record: Model, transaction: unknown, hooks: readonly string[]): transaction is Transaction {
  // a model class that overrides `save` wants it called
  if (record.save !== Model.prototype.save) return false;
  if ((record as unknown as RecordInternals)._options.include?.length) return false;
  if (!(transaction instanceof Transaction)) return false;
  const { connection, finished } = transaction as unknown as TransactionInternals;
  if (!connection || finished) return false;
  const model = record.constructor as unknown as ModelInternals;
  const sequelize = record.sequelize as unknown as Sequelize & SequelizeInternals;
  if (!RUNNERS[sequelize.getDialect()] || sequelize.options.native || observed(sequelize)) return false;
  return !hooks.some((hook) => model.hasHook(hook) || sequelize.hasHook(hook));
}

/**
 * Runs the statement Sequelize's query generator built (`query` and its
 * `bind` values) on the transaction's connection, under the request's
 * deadline, logged as `sequelize.query` logs it; a failure is the error
 * Sequelize would have thrown.
 */
export function runWrite(record: Model, transaction: Transaction, type: 'INSERT' | 'UPDATE', query: string, bind: unknown[]): Promise<Written> {
  const sequelize = record.sequelize as unknown as Sequelize & SequelizeInternals;
  const dialect = sequelize.getDialect();
  const [sql, bound] = queryClass(sequelize).formatBindParameters(query, bind, dialect);
  const parameters = dialect === 'sqlite' ? sqliteParameters(bound) : bound;
  const connection = (transaction as unknown as TransactionInternals).connection!;
  return withinDeadline(sequelize, transaction, 'statement', () => {
    logQuery(sequelize, connection, sql, parameters, QueryTypes[type]);
    return RUNNERS[dialect]!(connection as never, sql, parameters).catch((error: unknown) => refused(record, transaction, type, sql, parameters, error));
  });
}

/** The value `save` stamps `updatedAt` (or a first `createdAt`) with: the attribute's default, else `now`, one instant per save. */
export function timestamp(record: Model, attribute: string, now: Date = Utils.now(record.sequelize!.getDialect())): unknown {
  return (record.constructor as unknown as ModelInternals)._getDefaultTimestamp(attribute) || now;
}

/** What `save` leaves on a record it wrote: `fields` unchanged since, and the record no longer new. */
export function markSaved(record: Model, fields: readonly string[]): Model {
  const instance = record as unknown as RecordInternals;
  for (const field of fields) {
    instance._previousDataValues[field] = instance.dataValues[field];
    instance.changed(field, false);
  }
  instance.isNewRecord = false;
  return record;
}

/** Named `$n` parameters, bigints as text: what Sequelize's SQLite query hands the driver. */
function sqliteParameters(bound: unknown[] | Row | undefined): Row {
  const parameters: Row = Object.create(null) as Row;
  for (const [key, value] of Object.entries(bound ?? {})) parameters[key] = typeof value === 'bigint' ? value.toString() : value;
  return parameters;
}

/** The driver's error as the Sequelize error `save` would have thrown, after the same clean-up. */
async function refused(record: Model, transaction: Transaction, type: string, sql: string, parameters: unknown, error: unknown): Promise<never> {
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
  const Query = queryClass(sequelize);
  const query = new Query(connection, sequelize, { instance: record, model: record.constructor, type, transaction, logging: false });
  throw query.formatError(failure, new Error().stack);
}

/** The dialect's Query class: its bind-parameter formatting and its error shaping are Sequelize's own. */
function queryClass(sequelize: Sequelize): DialectQuery {
  return (sequelize as unknown as { dialect: { Query: DialectQuery } }).dialect.Query;
}
