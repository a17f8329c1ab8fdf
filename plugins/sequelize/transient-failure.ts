import { ConnectionError, TimeoutError } from 'sequelize';
import { ServiceUnavailable } from '../../core/index.ts';

/** SQLSTATEs (PostgreSQL, also MariaDB's `sqlState`) and MySQL codes of a failure that trying again can cure. */
const DEADLOCKS = new Set(['40P01', '40001', 'ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT', '1213', '1205']);
const LOST_CONNECTION_CODES = new Set([
  '57P01', '57P02', '57P03', '53300', 'ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND',
  'PROTOCOL_CONNECTION_LOST', 'ER_CON_COUNT_ERROR',
]);
/** What node-postgres and mysql2 say, without a code, of a connection that died under them. */
const LOST_CONNECTION_MESSAGES = [
  'Connection terminated', 'Client has encountered a connection error', 'connection is in closed state', 'Connection lost',
  'Cannot enqueue', 'This socket has been ended',
];
const MAX_DEPTH = 5;

/**
 * The 503 for a Sequelize or driver error that means the database could not
 * serve the request now; undefined for any other error. The driver's message
 * stays on the server (`cause`): the client learns only what to do.
 */
export function transientFailure(error: unknown): ServiceUnavailable | undefined {
  const kind = classify(error);
  if (!kind) return undefined;
  const unavailable = new ServiceUnavailable(kind.code, kind.detail);
  unavailable.cause = error;
  return unavailable;
}

const DEADLOCK = { code: 'database_conflict', detail: 'The request collided with a concurrent write and was rolled back; send it again.' };
const CONNECTION = { code: 'database_unavailable', detail: 'The database could not be reached; try again shortly.' };
const BUSY = { code: 'database_busy', detail: 'The database is busy with other writes; try again shortly.' };

function classify(error: unknown): typeof DEADLOCK | undefined {
  // Sequelize wraps driver errors in `parent`/`original`; the codes are on the driver's
  let current: unknown = error;
  for (let depth = 0; depth < MAX_DEPTH && current instanceof Error; depth++) {
    if (current instanceof ConnectionError) return CONNECTION;
    // SQLite's SQLITE_BUSY: the database stayed locked by another writer
    if (current instanceof TimeoutError) return BUSY;
    const { code, errno, sqlState } = current as { code?: unknown; errno?: unknown; sqlState?: unknown };
    for (const value of [code, errno, sqlState]) {
      if (value === undefined || value === null) continue;
      if (DEADLOCKS.has(String(value))) return DEADLOCK;
      if (LOST_CONNECTION_CODES.has(String(value))) return CONNECTION;
    }
    if (LOST_CONNECTION_MESSAGES.some((text) => current instanceof Error && current.message.includes(text))) return CONNECTION;
    current = (current as { parent?: unknown; original?: unknown }).parent ?? (current as { cause?: unknown }).cause;
  }
  return undefined;
}
