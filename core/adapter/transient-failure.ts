import { MuralError } from '../errors/mural-error.ts';
import type { Resource } from '../resource/resource.ts';

/**
 * What a client should see for an error that escaped a read or a write of
 * `resourceClass`: the adapter's 503 when it recognises a passing database
 * failure, the error itself otherwise. A write failing this way has rolled
 * back, since it escaped the transaction.
 */
export function unlessTransient(resourceClass: typeof Resource, error: unknown): unknown {
  if (error instanceof MuralError || resourceClass.adapter === undefined) return error;
  return resourceClass.adapterInstance().transientFailure?.(error) ?? error;
}
