/** `true`, `false`, or `"guarded"` when a guard decides per request. */
export type FlagValue = boolean | 'guarded';

/**
 * An attribute in `schema.json`: its type, and whether it is readable and writable (`"guarded"`
 * when a guard decides).
 */
export interface AttributeSchema {
  type: string;
  readable: FlagValue;
  writable: FlagValue;
  description: string | null;
}

export interface ExtraAttributeSchema {
  type: string;
  readable: FlagValue;
  description: string | null;
}

/** A sort in `schema.json`: the one direction it is limited to, and whether a guard decides. */
export interface SortSchema {
  only?: string;
  guard?: true;
}

/**
 * A filter in `schema.json`: its type and operators, and its restrictions (single value, allow and
 * deny lists, dependencies, required, guarded).
 */
export interface FilterSchema {
  type: string;
  operators: string[];
  single?: true;
  allow?: unknown[];
  deny?: unknown[];
  dependencies?: string[];
  required?: true;
  guard?: true;
}

/**
 * A relationship in `schema.json`: the type and Resource it leads to (several for a polymorphic
 * one), whether it is to-one, and whether a guard decides.
 */
export interface RelationshipSchema {
  type: string;
  resource?: string;
  resources?: string[];
  parent_resource?: string;
  single?: true;
  guard?: true;
}

/**
 * A Resource in `schema.json`: its type, attributes, filters, sorts, relationships, stats and
 * defaults.
 */
export interface ResourceSchema {
  name: string;
  type: string;
  description: string | null;
  attributes: Record<string, AttributeSchema>;
  extra_attributes: Record<string, ExtraAttributeSchema>;
  sorts: Record<string, SortSchema>;
  filters: Record<string, FilterSchema>;
  relationships: Record<string, RelationshipSchema>;
  /** Relationships `filter[has][<name>.<filter>]` and `filter[has_no]` reach (each guarded as the relationship is); absent in older exports. */
  related_filters?: string[];
  /** To-one relationships a sort may go through (`sort=<name>.<attribute>`); absent in older exports. */
  related_sorts?: string[];
  stats: Record<string, string[]>;
  default_sort: Array<Record<string, string>> | null;
  default_page_size: number;
  /** The index takes `page[after]` and `page[before]` (cursor pagination) besides `page[number]`. */
  cursor_pagination: boolean;
  /** The attribute holding a record's version: writes take `If-Match` (and `meta.version`) with it. Null when none; absent in older exports. */
  version_attribute?: string | null;
  /** The Resource's own `Cache-Control` for its GET answers, when it declares one. */
  cache_control?: string;
  /** A create may name its record's `id` (`clientGeneratedIds`); absent when it may not. */
  client_generated_ids?: true;
  polymorphic: boolean;
  children: string[];
  /** The actions a Resource-level guard (`guard(...)`) decides per request; absent when none. */
  guard?: string[];
  /**
   * Row rules (`allow(...)`) by action (`read`, `create`, `update`, `destroy`,
   * `link`), each described in a line; absent when none.
   */
  rules?: Record<string, string[]>;
  /** The column `softDelete` marks trashed records by; absent without soft delete. */
  soft_delete?: string;
}

/**
 * What `buildSchema` returns and `mural schema export` writes: every Resource, every endpoint and
 * every type.
 */
export interface Schema {
  resources: ResourceSchema[];
  endpoints: Record<string, { actions: Record<string, { resource: string }> }>;
  types: Record<string, { kind: string; description: string }>;
}
