import type { ResourceObject } from './record-serializer.ts';

export interface PaginationLinks {
  self: string;
  first: string;
  prev?: string;
  next?: string;
  last?: string;
}

/** A JSON:API top-level document as Mural renders it. */
export interface JsonApiDocument {
  data: ResourceObject | ResourceObject[] | null;
  included?: ResourceObject[];
  meta: Record<string, unknown>;
  links?: PaginationLinks;
}
