import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What Mural follows across awaits for the code running now. Each field is
 * owned by one module (context.ts, deadline.ts, transaction.ts, diagnostics/), which reads
 * and sets it; nothing else should.
 */
export interface AsyncScope {
  readonly context?: object;
  readonly deadline?: object;
  readonly transaction?: unknown;
  /** Answering a write that has committed: reads must see it. */
  readonly ownWrites?: boolean;
  /** The database statement under way, as the adapter enforcing the deadline records it. */
  readonly statement?: object;
  /** Where the database events of this code go (diagnostics/database-log.ts). */
  readonly databaseLog?: unknown[];
}

/*
 * One AsyncLocalStorage for all of them, not one each: while a store is in
 * use, every promise created pays to carry each store along (about 25 ns a
 * store an await on Node 20), and a request creates hundreds of promises.
 */
const storage = new AsyncLocalStorage<AsyncScope>();

export function currentScope(): AsyncScope | undefined {
  return storage.getStore();
}

/** Runs `fn` in the current scope with `changes` applied; the caller's scope is untouched. */
export function runInScope<R>(changes: AsyncScope, fn: () => R): R {
  return storage.run({ ...storage.getStore(), ...changes }, fn);
}
