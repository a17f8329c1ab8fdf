import { channel } from 'node:diagnostics_channel';

/**
 * The `node:diagnostics_channel` Mural publishes a `DatabaseEvent` on each
 * time an adapter operation settles: tracing and metrics subscribe to it
 * (`subscribe('mural:database', …)`) without Mural knowing any of them, and
 * nothing is measured while no one listens.
 */
export const DATABASE_CHANNEL = 'mural:database';

/** The adapter operations that reach the database. */
export type DatabaseOperation = 'resolve' | 'count' | 'calculate' | 'find' | 'save' | 'destroy' | 'link' | 'unlink' | 'transaction';

export const DATABASE_OPERATIONS: readonly DatabaseOperation[] = ['resolve', 'count', 'calculate', 'find', 'save', 'destroy', 'link', 'unlink', 'transaction'];

/**
 * One adapter operation, published once its promise settles, in the async
 * context of the code that started it (a subscriber's AsyncLocalStorage
 * tells it which request it belongs to). A transaction's own operations are
 * published too, each before the transaction's.
 */
export interface DatabaseEvent {
  /** The JSON:API type of the Resource whose adapter ran it. */
  readonly resource: string;
  readonly operation: DatabaseOperation;
  /** Milliseconds from the call to its promise settling. */
  readonly duration: number;
  /** How many records a `resolve` read. */
  readonly records?: number;
  /** What the operation failed with; absent when it succeeded. */
  readonly error?: unknown;
}

export const databaseChannel = channel(DATABASE_CHANNEL);
