import type { ResourceObject } from '../render/record-serializer.ts';

/** The URI of JSON:API's Atomic Operations extension: the `ext` media type parameter, and `jsonapi.ext` in its documents. */
export const ATOMIC_EXTENSION = 'https://jsonapi.org/ext/atomic';

type Meta = Readonly<Record<string, unknown>>;

/** A record an operation names: by `id`, or by the `lid` an earlier `add` gave it. */
export type AtomicIdentity = { id: string | number; lid?: never } | { lid: string; id?: never };

/** A resource identifier in an operation: an existing record, or one an earlier `add` created (`lid`). */
export type AtomicIdentifier = { type: string; meta?: Meta } & AtomicIdentity;

/** `ref` of an operation on a record. */
export type AtomicResourceRef = { type: string; relationship?: never } & AtomicIdentity;

/** `ref` of an operation on one relationship of a record. */
export type AtomicRelationshipRef = { type: string; relationship: string } & AtomicIdentity;

/** A relationship of a record an operation writes: identifiers, or `null` to clear a to-one relationship. */
export interface AtomicRelationship {
  data: AtomicIdentifier | readonly AtomicIdentifier[] | null;
  meta?: Meta;
}

/** The record an `add` creates or an `update` changes. */
export interface AtomicResourceObject {
  type: string;
  /** For `update`: which record (with or instead of `ref`). A create's id comes from the database. */
  id?: string | number;
  /** `add`: the local id later operations refer to the new record by; `update`: which record. */
  lid?: string;
  attributes?: Readonly<Record<string, unknown>>;
  relationships?: Readonly<Record<string, AtomicRelationship>>;
  meta?: Meta;
}

/** One operation of an `atomic:operations` document. */
export type AtomicOperation =
  | { op: 'add'; data: AtomicResourceObject & { id?: never }; ref?: never; meta?: Meta }
  | { op: 'update'; data: AtomicResourceObject; ref?: AtomicResourceRef; meta?: Meta }
  | { op: 'remove'; ref: AtomicResourceRef; data?: never; meta?: Meta }
  | { op: 'add' | 'remove'; ref: AtomicRelationshipRef; data: readonly AtomicIdentifier[]; meta?: Meta }
  | { op: 'update'; ref: AtomicRelationshipRef; data: AtomicIdentifier | readonly AtomicIdentifier[] | null; meta?: Meta };

/** What `runOperations` and `POST {ns}/operations` take. */
export interface AtomicOperationsDocument {
  'atomic:operations': readonly AtomicOperation[];
  meta?: Meta;
  jsonapi?: Meta;
}

/** The result of one operation: the record an `add` or `update` wrote, as `show` renders it; `{}` for the others. */
export interface AtomicResult {
  /** With the `lid` the `add` gave it, so the client can match its records to their new ids. */
  data?: ResourceObject & { lid?: string };
  meta?: Record<string, unknown>;
}

/** What `runOperations` answers: one result per operation, in their order. */
export interface AtomicResultsDocument {
  'atomic:results': AtomicResult[];
  jsonapi: { version: '1.1'; ext: [typeof ATOMIC_EXTENSION] };
}
