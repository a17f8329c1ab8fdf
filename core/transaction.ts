import { currentScope, runInScope } from './async-scope.ts';

/**
 * The transaction of the write running now, if any. Adapters read it so that
 * every query of a write (and of its hooks) sees the write's own changes.
 */
export function currentTransaction(): unknown {
  return currentScope()?.transaction;
}

export function withTransaction<T>(transaction: unknown, fn: () => Promise<T>): Promise<T> {
  return runInScope({ transaction }, fn);
}

/**
 * Whether the reads running now must see what this request wrote: inside a
 * write's transaction, or answering a write that has committed. An adapter
 * that reads from replicas sends such reads to the primary, since a replica
 * may not have replayed the write yet.
 */
export function readsOwnWrites(): boolean {
  const scope = currentScope();
  return scope?.transaction !== undefined || scope?.ownWrites === true;
}

/** Runs `fn` with reads that see this request's committed writes (`readsOwnWrites()` is true in it). */
export function withOwnWrites<T>(fn: () => Promise<T>): Promise<T> {
  return runInScope({ ownWrites: true }, fn);
}
