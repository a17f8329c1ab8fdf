import { Transaction, type Sequelize, type TransactionOptions } from 'sequelize';
import { currentTransaction, ServiceUnavailable } from '../../../core/index.ts';
import { connectionManager, isInMemory, query, type SqliteConnection } from './connections.ts';
import { sqliteState } from './settings.ts';
import { forgetWriter, lendWriter, markWriter } from './writer.ts';

/** What Sequelize keeps on a transaction without declaring it. */
interface TransactionInternals {
  readonly id: string;
  readonly sequelize: Sequelize;
  readonly connection?: SqliteConnection;
  readonly finished?: string;
  prepareEnvironment(useCls: boolean): Promise<void>;
}

function internals(transaction: Transaction): TransactionInternals {
  return transaction as unknown as TransactionInternals;
}

/**
 * A write's transaction on SQLite, which has one writer per database file.
 * Writes queue in this process and run one at a time, each holding the write
 * lock from its BEGIN; one that cannot start within the configured bounds, or
 * that finds the file locked by another process past the busy timeout, is a
 * 503 and leaves nothing written.
 */
export async function sqliteTransaction<T>(sequelize: Sequelize, write: (transaction: Transaction) => Promise<T>): Promise<T> {
  const outer = currentTransaction();
  if (outer instanceof Transaction && internals(outer).sequelize === sequelize && !internals(outer).finished) {
    // a write inside a write (a hook saving another Resource) would wait forever for the one writer, its own outer
    // write: it joins that one as a savepoint instead
    return sequelize.transaction({ transaction: outer }, write);
  }
  const state = sqliteState(sequelize);
  try {
    return await state.queue.run(() => immediateTransaction(sequelize, write));
  } catch (error) {
    throw busy(error, state.settings.retryAfter) ?? error;
  }
}

async function immediateTransaction<T>(sequelize: Sequelize, write: (transaction: Transaction) => Promise<T>): Promise<T> {
  // IMMEDIATE takes the write lock at BEGIN, so no write has to upgrade a read lock halfway, which SQLite refuses
  // when two try at once. No retries: BEGIN already waited the busy timeout.
  const options = { type: Transaction.TYPES.IMMEDIATE, retry: { max: 1 } } as TransactionOptions;
  const transaction = new Transaction(sequelize, options);
  let begun = false;
  let settled = false;
  lendWriter(sequelize, internals(transaction).id);
  try {
    await internals(transaction).prepareEnvironment(false);
    begun = true;
    markWriter(internals(transaction).connection);
    let result: T;
    try {
      result = await write(transaction);
    } catch (error) {
      settled = await transaction.rollback().then(() => true, () => false);
      throw error;
    }
    await transaction.commit();
    settled = true;
    return result;
  } finally {
    if (!settled) await discard(sequelize, internals(transaction), begun);
  }
}

/**
 * Sequelize cannot release a SQLite connection whose BEGIN, COMMIT or ROLLBACK
 * failed (its fallback destroys pool connections, and SQLite's are not
 * pooled): left open inside its transaction, it would hold the write lock
 * and block every other connection for good. Roll it back and close it.
 */
async function discard(sequelize: Sequelize, transaction: TransactionInternals, begun: boolean): Promise<void> {
  // one opened (or lent, writer.ts) for a transaction that failed before taking it is closed too
  const connection = transaction.connection ?? connectionManager(sequelize).connections[transaction.id];
  if (!connection) return;
  forgetWriter(sequelize, connection);
  if (begun) await query(connection, 'ROLLBACK').catch(() => undefined);
  // an in-memory database has one connection, which every query shares
  if (isInMemory(connection)) return;
  const manager = connectionManager(sequelize);
  if (manager.connections[transaction.id] === connection) delete manager.connections[transaction.id];
  await new Promise<void>((resolve) => connection.close(() => resolve()));
}

const MAX_DEPTH = 5;

/** The 503 for SQLITE_BUSY: another process held the database past the busy timeout. */
function busy(error: unknown, retryAfter: number): ServiceUnavailable | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < MAX_DEPTH && current instanceof Error; depth++) {
    if ((current as { code?: unknown }).code === 'SQLITE_BUSY') {
      const unavailable = new ServiceUnavailable(
        'database_busy',
        'The database is locked by another writer. Nothing was written; try again shortly.',
        retryAfter,
      );
      unavailable.cause = error;
      return unavailable;
    }
    // Sequelize keeps the driver's error as `parent`
    current = (current as { parent?: unknown }).parent ?? current.cause;
  }
  return undefined;
}
