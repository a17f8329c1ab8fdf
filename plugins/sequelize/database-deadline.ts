import { AsyncLocalStorage } from 'node:async_hooks';
import { Sequelize, type Transaction } from 'sequelize';
import { currentDeadline, DatabaseTimeout, ServiceUnavailable, timeLeft, type Deadline } from '../../core/index.ts';
import { cancelStatement, interruptedByCancel, type ConnectionManager } from './cancel-statement.ts';
import { catchEarlyClientErrors } from './postgres-client-errors.ts';
import { routeReads } from './read-replicas.ts';

/** One statement run under a deadline: the connection it runs on, once known, and whether it was cancelled. */
interface Watch {
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
  completesTransaction?: boolean;
}

const watching = new AsyncLocalStorage<Watch>();
const enforced = new WeakSet<Sequelize>();
/** Cancels under way, by connection: no one else gets the connection before its cancel is over. */
const cancelling = new WeakMap<object, Promise<void>>();

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
  // beneath the deadline's wait for a connection, so falling back to the primary counts against the same deadline
  routeReads(sequelize);
  const query = sequelize.query.bind(sequelize) as Query;
  (sequelize as unknown as { query: Query }).query = (sql, options = {}) =>
    withinDeadline(sequelize, options.transaction ?? clsTransaction(), kindOf(sql, options), () => query(sql, options));
  const manager = (sequelize as unknown as { connectionManager: ConnectionManager }).connectionManager;
  const getConnection = manager.getConnection.bind(manager);
  const releaseConnection = manager.releaseConnection.bind(manager);
  manager.getConnection = async (options) => {
    const watch = watching.getStore();
    if (!watch) return getConnection(options);
    const connection = await untilDeadline(watch, getConnection(options), releaseConnection);
    watch.connection = connection;
    return connection;
  };
  manager.releaseConnection = (connection) => {
    const pending = cancelling.get(connection);
    return pending ? pending.then(() => releaseConnection(connection)) : releaseConnection(connection);
  };
}

/**
 * A connection from the pool, or a DatabaseTimeout as soon as the time runs
 * out while waiting for one (an exhausted pool answers late, not never); a
 * connection arriving after that goes straight back.
 */
async function untilDeadline(watch: Watch, acquiring: Promise<object>, release: (connection: object) => unknown): Promise<object> {
  const timedOut = new Promise<never>((_, reject) => {
    watch.stopWaiting = () => reject(new DatabaseTimeout(watch.deadline.timeout));
    if (watch.cancelled) watch.stopWaiting();
  });
  try {
    return await Promise.race([acquiring, timedOut]);
  } catch (error) {
    if (watch.cancelled) acquiring.then(release, () => undefined);
    throw error;
  } finally {
    watch.stopWaiting = undefined;
    timedOut.catch(() => undefined);
  }
}

type Kind = 'statement' | 'commit' | 'rollback';

/** The transaction Sequelize itself picks for a query given none, when CLS is on. */
function clsTransaction(): Transaction | undefined {
  const cls = (Sequelize as unknown as { _cls?: { get(key: string): unknown } })._cls;
  return (cls?.get('transaction') as Transaction | undefined) ?? undefined;
}

function kindOf(sql: unknown, options: QueryOptions): Kind {
  if (!options.completesTransaction) return 'statement';
  return typeof sql === 'string' && /^\s*COMMIT/i.test(sql) ? 'commit' : 'rollback';
}

/**
 * Runs one statement under the current deadline. `transaction`: the one the
 * statement runs in, whose connection is known up front.
 */
export async function withinDeadline<T>(sequelize: Sequelize, transaction: Transaction | undefined, kind: Kind, run: () => Promise<T>, retried = false): Promise<T> {
  const deadline = currentDeadline();
  // a rollback always runs; a statement inside another's watch shares it
  if (!deadline || kind === 'rollback' || watching.getStore()) return run();
  if (timeLeft(deadline) <= 0) throw new DatabaseTimeout(deadline.timeout);
  if (kind === 'commit') return run();
  const connection = (transaction as unknown as { connection?: object } | undefined)?.connection;
  const watch: Watch = { deadline, connection, cancelled: false };
  const timer = setTimeout(() => cancel(sequelize, watch), timeLeft(deadline));
  try {
    const result = await watching.run(watch, run);
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
    await watch.cancelling;
  }
}

/** True inside a statement whose deadline has cancelled it (for reads that bypass `sequelize.query`). */
export function cancelledByDeadline(): boolean {
  return watching.getStore()?.cancelled ?? false;
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
