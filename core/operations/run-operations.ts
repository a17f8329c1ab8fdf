import { unlessTransient } from '../adapter/transient-failure.ts';
import { withDeadline } from '../deadline.ts';
import { BadRequestError, MuralError, OperationFailed, RecordNotFound, RelationshipNotFound, ServiceUnavailable } from '../errors/index.ts';
import { prepareResources } from '../relationships/prepare.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { WriteBatch } from '../write/write-batch.ts';
import { executeOperation } from './execute-operation.ts';
import { lockNamedRecords } from './lock-named-records.ts';
import { operationResources } from './operation-resources.ts';
import { ATOMIC_EXTENSION, type AtomicOperationsDocument, type AtomicResult, type AtomicResultsDocument } from './operation-types.ts';
import { parseOperations, type ParsedOperation } from './parse-operations.ts';

export interface RunOperationsOptions {
  /** The Resources operations may write, found by type (as a router serves them). */
  resources: ReadonlyArray<typeof ResourceBase>;
}

/**
 * JSON:API's Atomic Operations extension, in-process: every operation of
 * the document runs in order, in one transaction, through the same write
 * engines as the Resource and relationship endpoints; later operations may
 * name records earlier ones add by their `lid`. Resolves to the
 * `atomic:results` document. When any operation fails nothing is written,
 * and the error thrown is that operation's, with pointers under it
 * (`/atomic:operations/2/data/attributes/age`): an `OperationFailed` with
 * its status (400, 403, 404, 409, 422). A malformed document is a 400
 * before anything runs; a database that cannot serve the write now, a 503.
 * The document is checked in full, so it may come straight from a client.
 */
export function runOperations(document: AtomicOperationsDocument, options: RunOperationsOptions): Promise<AtomicResultsDocument> {
  return withDeadline(() => run(document, options));
}

async function run(document: unknown, options: RunOperationsOptions): Promise<AtomicResultsDocument> {
  prepareResources();
  const { operations, lids } = parseOperations(document, operationResources(options.resources));
  const first = operations[0]!.resource;
  let current: WriteBatch | undefined;
  try {
    const results = await WriteBatch.run(first, async (batch) => {
      current = batch;
      if (operations.every((operation) => batch.accepts(operation.resource))) await lockNamedRecords(operations);
      const results: AtomicResult[] = [];
      for (const operation of operations) {
        // also what a failing beforeCommit hook reports: the operation its record came from
        batch.step = operation.index;
        if (!batch.accepts(operation.resource)) {
          throw new BadRequestError('mixed_databases', `${operation.resource.type} is stored in another database than ${first.type}: one request's operations share one transaction`);
        }
        results.push(await executeOperation(operation, batch, lids));
      }
      return results;
    });
    return { 'atomic:results': results, jsonapi: { version: '1.1', ext: [ATOMIC_EXTENSION] } };
  } catch (error) {
    throw located(error, operations[current?.step ?? 0]!, first);
  }
}

/** The error of the operation that failed, located under it; a 503 concerns the whole request, and a 500 says nothing. */
function located(error: unknown, operation: ParsedOperation, first: typeof ResourceBase): unknown {
  if (error instanceof ServiceUnavailable || !(error instanceof MuralError)) return unlessTransient(first, error);
  if (error instanceof RelationshipNotFound && operation.kind === 'relationship') return new OperationFailed(operation.pointer, error, { fallback: '/ref/relationship' });
  // the write engine finds the record an update names at /data, its root; one named by ref is missing at the ref
  const byRef = error instanceof RecordNotFound && error.pointer === '/data' && operation.kind === 'update' && operation.ref !== undefined;
  return new OperationFailed(operation.pointer, error, byRef ? { at: '/ref' } : { fallback: operation.fallback });
}
