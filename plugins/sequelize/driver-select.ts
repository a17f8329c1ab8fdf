import { DatabaseError, QueryTypes, Sequelize, type Transaction } from 'sequelize';
import { withStatement } from '../../core/index.ts';
import { acquireConnection, cancelPending, withinDeadline, type Watch } from './database-deadline.ts';
import { readyConnection } from './sqlite/connections.ts';
import { selectPrepared, type PreparingConnection } from './sqlite/statements.ts';
import { readShared } from './sqlite/shared-reads.ts';
import { selectJsonBatch, selectJsonRows, type JsonRowsStatement } from './sqlite/json-rows.ts';
import { cancelStatement, interruptedByCancel } from './cancel-statement.ts';
import { batchedSelect } from './statement-batch.ts';
import { logQuery, observed, type SequelizeInternals } from './driver-access.ts';
import { plainRowTypes, type PgTypes } from './postgres-render-types.ts';

type Row = Record<string, unknown>;

/** What the drivers Mural reads through directly look like, as far as a SELECT goes (SQLite's: sqlite/statements.ts). */
interface PostgresConnection {
  query(query: { text: string; types?: PgTypes }): Promise<{ rows: Row[] } | Array<{ rows: Row[] }>>;
}
interface MysqlConnection {
  query(options: { sql: string }, callback: (error: Error | null, rows: Row[]) => void): unknown;
}

type Runner = (connection: unknown, sql: string, types?: PgTypes, columns?: readonly string[]) => Promise<Row[]>;

const RUNNERS: Record<string, Runner> = {
  sqlite: (connection, sql, _types, columns) =>
    columns ? selectJsonRows(connection as PreparingConnection, sql, columns) : selectPrepared(connection as PreparingConnection, sql),
  postgres: async (connection, sql, types) => ((await (connection as PostgresConnection).query({ text: sql, types })) as { rows: Row[] }).rows,
  mysql: (connection, sql) =>
    new Promise((resolve, reject) => {
      (connection as MysqlConnection).query({ sql }, (error, rows) => (error ? reject(error) : resolve(rows)));
    }),
};

/**
 * Runs a SELECT Mural generated on the connection Sequelize manages, through
 * the driver itself. `sequelize.query` adds per query what a plain read never
 * uses: a captured stack trace, option merging, result copying, and on SQLite
 * a `PRAGMA table_info` round trip before every SELECT. The rows are the
 * ones `sequelize.query(sql, { type: SELECT })` returns, since the
 * connection carries Sequelize's own type parsers.
 *
 * Whenever something could observe the difference (query hooks, CLS
 * transactions, benchmark logging, a prepended search path, another
 * dialect), the query goes through `sequelize.query` as before.
 */
export function selectThroughDriver(sequelize: Sequelize, sql: string, transaction: Transaction | undefined, options: SelectOptions = {}): Promise<Row[]> {
  const internals = sequelize as unknown as SequelizeInternals;
  const dialect = sequelize.getDialect();
  const runner = RUNNERS[dialect];
  if (!runner || observed(internals)) return sequelize.query(sql, { type: QueryTypes.SELECT, transaction }) as Promise<Row[]>;
  const finished = (transaction as { finished?: string } | undefined)?.finished;
  if (finished) return Promise.reject(new Error(`${finished} has been called on this transaction, you can no longer use it`));
  const postgres = dialect === 'postgres';
  const types = options.plain && postgres ? plainRowTypes(internals) : undefined;
  const runOne = (one: string, columns = options.columns) =>
    withinDeadline(sequelize, transaction, 'read', (watch) => selectDirectly(sequelize, internals, (connection) => runner(connection, one, types, columns), [one], transaction, watch));
  if (transaction) return runOne(sql);
  if (dialect === 'sqlite') {
    if (!options.columns) return runOne(sql);
    // sibling reads as one statement: SQLite runs them one after another on its one read connection anyway
    const runMany = (statements: readonly JsonRowsStatement[]) => withinDeadline(sequelize, undefined, 'read', (watch) =>
      selectDirectly(sequelize, internals, (connection) => selectJsonBatch(connection as PreparingConnection, statements), statements.map((one) => one.sql), undefined, watch, false));
    return batchedSelect(sequelize, { sql, columns: options.columns }, runMany, (one) => runOne(one.sql, one.columns), 'sqlite-json');
  }
  if (!postgres) return runOne(sql);
  const runMany = (statements: readonly string[]) => withinDeadline(sequelize, undefined, 'read', (watch) => selectManyDirectly(sequelize, internals, statements, types, watch));
  // plain rows and rows for model instances cannot share one query's parsers
  return batchedSelect(sequelize, sql, runMany, runOne, types ? 'plain' : 'models');
}

export interface SelectOptions {
  /**
   * Only Mural reads the rows (plain rows for the renderer, a count): on
   * PostgreSQL a UTC timestamptz may then come back as the ISO 8601 text
   * the renderer writes rather than a Date (postgres-render-types.ts). Rows
   * that become model instances keep Dates.
   */
  plain?: boolean;
  /** The names of the SELECT's result columns, each once: SQLite may then answer the rows as one JSON text (sqlite/json-rows.ts). */
  columns?: readonly string[];
}

/**
 * Several SELECTs in one simple-protocol query on one PostgreSQL
 * connection (see statement-batch.ts). Each is logged as if sent alone, so
 * query logs and counts do not depend on batching. A failure is thrown
 * as is: the batch then runs each statement alone.
 */
async function selectManyDirectly(
  sequelize: Sequelize,
  internals: SequelizeInternals,
  statements: readonly string[],
  types: PgTypes | undefined,
  watch: Watch | undefined,
): Promise<Row[][]> {
  const manager = internals.connectionManager;
  const connection = await acquireConnection(sequelize, { type: 'SELECT' }, watch);
  try {
    for (const sql of statements) logQuery(internals, connection, sql);
    // one statement per line, each ending its own way or not: exactly one `;` between them
    const text = `${statements.map((sql) => sql.trimEnd().replace(/;$/, '')).join(';\n')};`;
    const results = await (connection as PostgresConnection).query({ text, types });
    if (!Array.isArray(results) || results.length !== statements.length) throw new Error('Mural: a batch of SELECTs answered a different number of results');
    return results.map((result) => result.rows);
  } catch (error) {
    throw watch?.cancelled ? new DatabaseError(error as Error & { sql: string; parameters: object }) : error;
  } finally {
    await manager.releaseConnection(connection);
  }
}

/**
 * Runs `run` on the connection a read outside a transaction uses (or the
 * transaction's), logging `statements` as sent. A failure outside a
 * transaction is retried through Sequelize's own path unless `retry` is
 * false (a batch, whose statements its caller runs again one by one).
 */
function selectDirectly<R>(
  sequelize: Sequelize,
  internals: SequelizeInternals,
  run: (connection: unknown) => Promise<R>,
  statements: readonly string[],
  transaction: Transaction | undefined,
  watch: Watch | undefined,
  retry = true,
): Promise<R> {
  // SQLite's connection for reads is open and shared: no checkout, nothing to release
  const ready = transaction ? undefined : readyConnection(sequelize);
  const shared = ready && !cancelPending(ready) ? ready : undefined;
  const attempt = (release: boolean): Attempt<R> => ({ run, statements, retry, release });
  if (transaction) return runOn(sequelize, internals, attempt(false), (transaction as unknown as { connection: unknown }).connection, transaction, watch);
  if (shared) return onSharedConnection(sequelize, internals, attempt(false), shared, watch);
  // a pool's connection; on SQLite the one connection again, once the cancel under way on it is over
  return acquireConnection(sequelize, { type: 'SELECT' }, watch).then((connection) =>
    sequelize.getDialect() === 'sqlite'
      ? onSharedConnection(sequelize, internals, attempt(true), connection, watch)
      : runOn(sequelize, internals, attempt(true), connection, undefined, watch),
  );
}

/** Every SQLite read outside a transaction runs on one connection: which read a cancel interrupts, and when, is readShared's. */
function onSharedConnection<R>(sequelize: Sequelize, internals: SequelizeInternals, attempt: Attempt<R>, connection: object, watch: Watch | undefined): Promise<R> {
  if (watch) watch.connection = undefined;
  const interrupt = () => void cancelStatement(sequelize, connection);
  return readShared(connection, watch, interrupt, () => runOn(sequelize, internals, attempt, connection, undefined, watch));
}

interface Attempt<R> {
  readonly run: (connection: unknown) => Promise<R>;
  readonly statements: readonly string[];
  readonly retry: boolean;
  /** The connection was checked out for this read, and goes back to the pool after it. */
  readonly release: boolean;
}

// promises chained rather than an async function: this runs for every read
function runOn<R>(
  sequelize: Sequelize,
  internals: SequelizeInternals,
  { run, statements, retry, release }: Attempt<R>,
  connection: unknown,
  transaction: Transaction | undefined,
  watch: Watch | undefined,
): Promise<R> {
  for (const sql of statements) logQuery(internals, connection, sql);
  const recover = (error: unknown): Promise<R> => {
    if (transaction || watch?.cancelled) throw new DatabaseError(error as Error & { sql: string; parameters: object });
    // another read's cancel reached this one: withinDeadline runs it again, through here. Not through Sequelize, whose
    // statements node-sqlite3 finalizes on the event loop's thread, which blocks while any other statement runs
    if (interruptedByCancel(sequelize, error) || !retry) throw error;
    // outside a transaction, Sequelize's own path retries (SQLITE_BUSY) and shapes the error, under this statement's watch
    const again = () => sequelize.query(statements[0]!, { type: QueryTypes.SELECT }) as Promise<R>;
    return watch ? withStatement(watch, again) : again();
  };
  let running: Promise<R>;
  try {
    running = run(connection).catch(recover);
  } catch (error) {
    running = Promise.reject(error).catch(recover);
  }
  return release ? running.finally(() => internals.connectionManager.releaseConnection(connection)) : running;
}
