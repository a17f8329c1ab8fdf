export { runOperations, type RunOperationsOptions } from './run-operations.ts';
export {
  ATOMIC_EXTENSION, type AtomicIdentifier, type AtomicIdentity, type AtomicOperation, type AtomicOperationsDocument, type AtomicRelationship,
  type AtomicRelationshipRef, type AtomicResourceObject, type AtomicResourceRef, type AtomicResult, type AtomicResultsDocument,
} from './operation-types.ts';
