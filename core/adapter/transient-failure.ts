import { MuralError } from '../errors/mural-error.ts';
import type { Adapter, AdapterClass } from './adapter.ts';

/** What this needs of a Resource class: whether it has an adapter, and the adapter. */
interface AdaptedClass {
  readonly adapter: AdapterClass | undefined;
  adapterInstance(): Adapter;
}

/**
 * What a client should see for an error that escaped a read or a write of
 * `resourceClass`: the adapter's 503 when it recognises a passing database
 * failure, the error itself otherwise. A write failing this way has rolled
 * back, since it escaped the transaction.
 */
export function unlessTransient(resourceClass: AdaptedClass, error: unknown): unknown {
  if (error instanceof MuralError || resourceClass.adapter === undefined) return error;
  return resourceClass.adapterInstance().transientFailure?.(error) ?? error;
}
