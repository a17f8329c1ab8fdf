import { Sequelize, type Transaction } from 'sequelize';
import { currentDeadline, currentStatement, DatabaseTimeout, ServiceUnavailable, timeLeft, withStatement, type Deadline } from '../../core/index.ts';
import { cancelStatement, interruptedByCancel, type ConnectionManager } from './cancel-statement.ts';
import { catchEarlyClientErrors } from './postgres-client-errors.ts';
import { lightenCheckout } from './pool-checkout.ts';
import { routeReads } from './read-replicas.ts';

/** One statement run under a deadline: the connection it runs on, once known, and whether it was cancelled. */
export interface Watch {
  readonly deadline: Deadline;
  connection?: object;
  cancelled: boolean;
  cancelling?: Promise<void>;
  /** Ends a wait for a pooled connection when the time runs out first. */
  stopWaiting?: () => void;
}

type Query = (sql: unknown, options?: QueryOptions) => Promise<unknown>;
interface QueryOptions {
  transaction?: Transaction | null;
  type?: string;
  completesTransaction?: boolean;
}
type Acquire = (options: object | undefined, watch: Watch | undefined) => Promise<object>;

const enforced = new WeakSet<Sequelize>();
/** Takes a connection from the pool under a watch: what `manager.getConnection` does, with the watch passed rather than looked up. */
const acquirers = new WeakMap<Sequelize, Acquire>();
/** Cancels under way, by connection: no one else gets the connection before its cancel is over. */
const cancelling = new WeakMap<object, Promise<void>>();
const ignore = () => undefined;

/**
 * Makes every statement of `sequelize` honour the request deadline core holds
 * (`databaseTimeout`): when it expires, the running statement is cancelled in
 * the database (SQLite `interrupt()`, PostgreSQL `pg_cancel_backend`, MySQL
 * and MariaDB `KILL QUERY`) and the caller gets a DatabaseTimeout (503). A
 * write's transaction then rolls back as for any failed statement; a COMMIT is
 * never cancelled half way, only refused once the time is up.
 *
 * Installed on the instance, not as query hooks: hooks would send every read
 * back through `sequelize.query` (see driver-select.ts).
 */
export function enforceDeadlines(sequelize: Sequelize): void {
  if (enforced.has(sequelize)) return;
  enforced.add(sequelize);
  // the first use of an instance is where Mural prepares its connections too
  catchEarlyClientErrors(sequelize);
  lightenCheckout(sequelize);
  // beneath the deadline's wait for a connection, so falling back to the primary counts against the same deadline
  routeReads(sequelize);
  const query = sequelize.query.bind(sequelize) as Query;
  // Sequelize asks for its connection deep inside `query`: the watch travels there in the async scope
  (sequelize as unknown as { query: Query }).query = (sql, options = {}) =>
    withinDeadline(sequelize, options.transaction ?? clsTransaction(), kindOf(sql, options), (watch) =>
      watch ? withStatement(watch, () => query(sql, options)) : query(sql, options),
    );
  const manager = (sequelize as unknown as { connectionManager: ConnectionManager }).connectionManager;
  const getConnection = manager.getConnection.bind(manager);
  const releaseConnection = manager.releaseConnection.bind(manager);
  const acquire: Acquire = (options, watch) => (watch ? untilDeadline(watch, getConnection(options), releaseConnection) : getConnection(options));
  acquirers.set(sequelize, acquire);
  manager.getConnection = (options) => acquire(options as object | undefined, currentStatement() as Watch | undefined);
  manager.releaseConnection = (connection) => {
    const pending = cancelling.get(connection);
    return pending ? pending.then(() => releaseConnection(connection)) : releaseConnection(connection);
  };
}

/**
 * A connection from the pool for a statement under `watch`, without going
 * through the async scope: for code that holds the watch itself
 * (driver-select.ts). Without a watch, no deadline applies.
 */
export function acquireConnection(sequelize: Sequelize, options: object, watch: Watch | undefined): Promise<object> {
  const acquire = acquirers.get(sequelize);
  if (acquire) return acquire(options, watch);
  return (sequelize as unknown as { connectionManager: ConnectionManager }).connectionManager.getConnection(options);
}

/**
 * A connection from the pool, or a DatabaseTimeout as soon as the time runs
 * out while waiting for one (an exhausted pool answers late, not never); a
 * connection arriving after that goes straight back. One promise, not a
 * race of two: this runs for every statement.
 */
function untilDeadline(watch: Watch, acquiring: Promise<object>, release: (connection: object) => unknown): Promise<object> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = () => {
      settled = true;
      watch.stopWaiting = undefined;
    };
    watch.stopWaiting = () => {
      if (settled) return;
      settle();
      acquiring.then(release, ignore);
      reject(new DatabaseTimeout(watch.deadline.timeout));
    };
    if (watch.cancelled) return watch.stopWaiting();
    acquiring.then(
      (connection) => {
        if (settled) return;
        settle();
        watch.connection = connection;
        resolve(connection);
      },
      (error: unknown) => {
        if (settled) return;
        settle();
        reject(error);
      },
    );
  });
}

/** `read`: a statement known to change nothing (a SELECT). */
type Kind = 'read' | 'statement' | 'commit' | 'rollback';

/** The transaction Sequelize itself picks for a query given none, when CLS is on. */
function clsTransaction(): Transaction | undefined {
  const cls = (Sequelize as unknown as { _cls?: { get(key: string): unknown } })._cls;
  return (cls?.get('transaction') as Transaction | undefined) ?? undefined;
}

function kindOf(sql: unknown, options: QueryOptions): Kind {
  if (!options.completesTransaction) return options.type === 'SELECT' || (typeof sql === 'string' && /^\s*SELECT\b/i.test(sql)) ? 'read' : 'statement';
  return typeof sql === 'string' && /^\s*COMMIT/i.test(sql) ? 'commit' : 'rollback';
}

/**
 * Runs one statement under the current deadline. `transaction`: the one the
 * statement runs in, whose connection is known up front. `run` gets the
 * statement's watch, or undefined when no deadline applies or the statement
 * runs inside another's watch (whose scope it is in).
 */
export async function withinDeadline<T>(
  sequelize: Sequelize,
  transaction: Transaction | undefined,
  kind: Kind,
  run: (watch: Watch | undefined) => Promise<T>,
  retried = false,
): Promise<T> {
  const deadline = currentDeadline();
  // a rollback always runs; a statement inside another's watch shares it
  if (!deadline || kind === 'rollback' || currentStatement()) return run(undefined);
  if (timeLeft(deadline) <= 0) throw new DatabaseTimeout(deadline.timeout);
  if (kind === 'commit') return run(undefined);
  const connection = (transaction as unknown as { connection?: object } | undefined)?.connection;
  const watch: Watch = { deadline, connection, cancelled: false };
  const early = answersAtDeadline(sequelize, transaction, kind);
  let expire: ((error: DatabaseTimeout) => void) | undefined;
  const timer = setTimeout(() => {
    cancel(sequelize, watch);
    expire?.(new DatabaseTimeout(deadline.timeout));
  }, timeLeft(deadline));
  try {
    const running = run(watch);
    const result = await (early ? untilExpired(running, (reject) => (expire = reject)) : running);
    if (watch.cancelled) throw new DatabaseTimeout(deadline.timeout);
    return result;
  } catch (error) {
    if (watch.cancelled) throw new DatabaseTimeout(deadline.timeout);
    // SQLite's interrupt() stops every statement of its one connection, not only the late one
    if (!interruptedByCancel(sequelize, error)) throw error;
    if (!transaction && !retried) return withinDeadline(sequelize, transaction, kind, run, true);
    throw new ServiceUnavailable('database_interrupted', 'Another request cancelled a statement this write shared a connection with; nothing was written');
  } finally {
    clearTimeout(timer);
    if (watch.cancelling && !early) await watch.cancelling;
  }
}

/**
 * A read (a SELECT) outside a transaction on a server answers its 503 at
 * the deadline, while the cancel (a connection of its own, then the killed
 * statement's error) finishes behind it: under load that took seconds on
 * MySQL. Its connection goes back to the pool only once the cancel is over
 * (see `releaseConnection` in enforceDeadlines), so no other statement
 * meets the cancel. Any other statement waits for its statement to stop,
 * so that a 503 never comes before a write is over or rolled back;
 * SQLite's `interrupt()` is immediate anyway.
 */
function answersAtDeadline(sequelize: Sequelize, transaction: Transaction | undefined, kind: Kind): boolean {
  return kind === 'read' && transaction === undefined && sequelize.getDialect() !== 'sqlite';
}

/** `running`'s outcome, or the rejection `onExpiry` is handed first; `running` settling later is then ignored. */
function untilExpired<T>(running: Promise<T>, onExpiry: (reject: (error: DatabaseTimeout) => void) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    running.then(resolve, reject);
    onExpiry(reject);
  });
}

/** A cancel under way on `connection`, which must be over before the connection runs anything else. */
export function cancelPending(connection: object): boolean {
  return cancelling.has(connection);
}

function cancel(sequelize: Sequelize, watch: Watch): void {
  watch.cancelled = true;
  watch.stopWaiting?.();
  const connection = watch.connection;
  if (!connection) return;
  const done = cancelStatement(sequelize, connection).catch((error: unknown) => {
    console.error('Mural: could not cancel a statement past its databaseTimeout', error);
  });
  const pending = done.finally(() => cancelling.delete(connection));
  cancelling.set(connection, pending);
  watch.cancelling = pending;
}
