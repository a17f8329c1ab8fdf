import type { ResourceObject } from './record-serializer.ts';

/** The `links` of an index document: the page itself, the first, previous, next and last pages. */
export interface PaginationLinks {
  self: string;
  first: string;
  /** Null on a cursor page with nothing before it (offset pages leave it out). */
  prev?: string | null;
  /** Null on a cursor page with nothing after it (offset pages leave it out). */
  next?: string | null;
  last?: string;
}

/** A JSON:API top-level document as Mural renders it. */
export interface JsonApiDocument {
  data: ResourceObject | ResourceObject[] | null;
  included?: ResourceObject[];
  meta: Record<string, unknown>;
  links?: PaginationLinks;
}
