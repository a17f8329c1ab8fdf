/** A resource identifier in a write's relationships: an existing record by `id`, or a sideposted one by `temp-id`. */
export interface WriteIdentifier {
  type: string;
  id?: string | number;
  'temp-id'?: string;
  /** `update` by default; `create` needs a `temp-id` and an `included` entry. */
  method?: 'create' | 'update' | 'destroy' | 'disassociate';
  meta?: Readonly<Record<string, unknown>>;
}

/** One relationship of a written record: identifiers, or `null` to clear a to-one relationship. */
export interface WriteRelationship {
  data: WriteIdentifier | readonly WriteIdentifier[] | null;
  meta?: Readonly<Record<string, unknown>>;
}

/** A record in a write: the primary one, or a sideposted one in `included`. */
export interface WriteResourceObject {
  type: string;
  /** For updates; a create's id comes from the database. */
  id?: string | number;
  'temp-id'?: string;
  attributes?: Readonly<Record<string, unknown>>;
  relationships?: Readonly<Record<string, WriteRelationship>>;
  meta?: Readonly<Record<string, unknown>>;
}

/** A JSON:API write document, as `build`, `update` and a POST or PATCH body take it. */
export interface WriteDocument {
  data: WriteResourceObject;
  included?: readonly WriteResourceObject[];
  meta?: Readonly<Record<string, unknown>>;
  jsonapi?: Readonly<Record<string, unknown>>;
}

/** A write document, or its primary record alone (without the `data` wrapper). */
export type WritePayload = WriteDocument | (WriteResourceObject & { included?: readonly WriteResourceObject[] });

/** An existing record a relationship write names. */
export interface RelationshipIdentifier {
  type: string;
  id: string | number;
  meta?: Readonly<Record<string, unknown>>;
}

/**
 * What a relationship endpoint's PATCH, POST or DELETE takes: identifiers
 * (a to-many relationship), one identifier or null (a to-one relationship).
 */
export interface RelationshipPayload {
  data: RelationshipIdentifier | readonly RelationshipIdentifier[] | null;
  meta?: Readonly<Record<string, unknown>>;
}
