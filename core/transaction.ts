import { AsyncLocalStorage } from 'node:async_hooks';

const storage = new AsyncLocalStorage<unknown>();

/**
 * The transaction of the write running now, if any. Adapters read it so that
 * every query of a write (and of its hooks) sees the write's own changes.
 */
export function currentTransaction(): unknown {
  return storage.getStore();
}

export function withTransaction<T>(transaction: unknown, fn: () => Promise<T>): Promise<T> {
  return storage.run(transaction, fn);
}
