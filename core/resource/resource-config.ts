import type { AdapterClass, SortDirection } from '../adapter/adapter.ts';
import type { Action } from './action.ts';
import type { RelationshipDefinition, ResourceClassLike } from './relationship-definition.ts';
import { registerResource } from './resource-registry.ts';
import type { HookDefinition } from './hook-definition.ts';
import { bumpRevision } from './revision.ts';
import type { AttributeDefinition } from './attribute.ts';
import type { FilterDeclaration } from './filter-definition.ts';
import type { Guard } from './guard.ts';
import type { ResourceGuardDefinition } from './resource-guard.ts';
import type { RowRuleDefinition } from './row-rule.ts';
import type { SoftDeleteDefinition } from './soft-delete.ts';
import type { SortDeclaration } from './sort-definition.ts';
import type { StatDefinition } from './stat-definition.ts';

/** Where a Resource is served (a path below its namespace) and which actions it serves there. */
export interface Endpoint {
  /** Path below the namespace, e.g. `/employees`. */
  readonly path: string;
  readonly actions: readonly Action[];
}

/** Settings a subclass inherits unless it sets its own. */
export interface ResourceSettings {
  model?: unknown;
  description?: string;
  adapter?: AdapterClass;
  baseUrl?: string;
  endpointNamespace?: string;
  defaultSort?: Array<Record<string, SortDirection>>;
  defaultPageSize: number;
  maxPageSize: number;
  maxIncludeDepth: number;
  /** Include breadth: at most this many relationships (tree nodes) in one request's `include`. */
  maxIncludes: number;
  /** At most this many records sideloaded per request; more is a 400, never a silent cut. */
  maxIncludedRecords: number;
  /** At most this many values in one filter (`filter[id]=1,2,3…`). */
  maxFilterValues: number;
  validateEndpoints: boolean;
  autolink: boolean;
  /**
   * What a relationship object's `links` point at: `'filters'`, the related
   * Resource's index filtered to the record's related records; `'endpoints'`,
   * the relationship endpoints (`self`: `…/{id}/relationships/{name}`,
   * `related`: `…/{id}/{name}`), which answer exactly what `include` gives.
   */
  relationshipLinks: RelationshipLinkStyle;
  paginationLinks: boolean;
  filtersAcceptNilByDefault: boolean;
  /** The child Resources: class names, types, or thunks returning the classes. */
  polymorphic?: Array<string | (() => ResourceClassLike)>;
  attributesReadableByDefault: Guard;
  attributesWritableByDefault: Guard;
  attributesSortableByDefault: Guard;
  attributesFilterableByDefault: Guard;
  attributesSchemaByDefault: boolean;
  /**
   * The attribute (model property) holding each record's version, which a
   * write changes: a lock column or `updated_at`. Records then carry it in
   * their ETag and writes take `If-Match`. Default: the adapter's own
   * (Sequelize's `version: true` column); `false` for none.
   */
  versionAttribute?: string | false;
  /**
   * Accept a client-generated `id` on create (`data.id`, a sideposted
   * record's `id` with `method: 'create'`, an atomic `add`'s `data.id`),
   * validated by the Resource's `id` type; an id already taken is a 409.
   * Meant for UUID keys, which clients (Ember Data, Orbit.js) generate
   * without asking. Default false: a create naming an id is a 403.
   */
  clientGeneratedIds?: boolean;
  /** The `Cache-Control` of this Resource's GET responses. Default `no-cache`: store, but ask again with the ETag. */
  cacheControl?: string;
}

/**
 * What relationship links point at: `'filters'`, the related index filtered to the record (the
 * default), or `'endpoints'`, the relationship endpoints.
 */
export type RelationshipLinkStyle = 'filters' | 'endpoints';

/** Adjusts the scope `S` when an extra attribute is requested, and returns it. */
export type ExtraAttributeHook<S = never, I = never, Result = unknown> = (scope: S, resource: I) => Result;
/** Replaces the adapter's pagination of the scope `S`. */
export type PaginateFunction<S = never, I = never, Result = unknown> = (scope: S, number: number, size: number, resource: I) => Result;

/**
 * Everything the DSL records for one Resource class. A subclass starts from a
 * copy of its parent's, so overriding never leaks upwards.
 */
export interface ResourceConfig {
  settings: ResourceSettings;
  /** Not inherited: each class has its own type and abstractness. */
  type?: string;
  abstractClass: boolean;
  primaryEndpoint?: Endpoint;
  secondaryEndpoints: Endpoint[];
  attributes: Map<string, AttributeDefinition>;
  filters: Map<string, FilterDeclaration>;
  sorts: Map<string, SortDeclaration>;
  stats: Map<string, StatDefinition>;
  extraAttributeHooks: Map<string, ExtraAttributeHook[]>;
  paginate?: PaginateFunction;
  relationships: Map<string, RelationshipDefinition>;
  /** For polymorphic parents: the column telling which child a record is. */
  polymorphicColumn?: string;
  /** Persistence hooks, in declaration order. */
  hooks: HookDefinition[];
  /** Resource-level guards (`guard(...)`), each covering some actions; all must agree. */
  guards: ResourceGuardDefinition[];
  /** Row rules (`allow(...)`), each for one action; all of an action's must hold. */
  rules: RowRuleDefinition[];
  /** `softDelete(column)`: a destroy marks the record, and reads leave marked records out. */
  softDelete?: SoftDeleteDefinition;
}

export const DEFAULT_SETTINGS: ResourceSettings = {
  defaultPageSize: 20,
  maxPageSize: 1000,
  maxIncludeDepth: 5,
  maxIncludes: 30,
  maxIncludedRecords: 10_000,
  maxFilterValues: 1000,
  validateEndpoints: false,
  autolink: true,
  relationshipLinks: 'filters',
  paginationLinks: true,
  filtersAcceptNilByDefault: false,
  attributesReadableByDefault: true,
  attributesWritableByDefault: true,
  attributesSortableByDefault: true,
  attributesFilterableByDefault: true,
  attributesSchemaByDefault: true,
};

const configs = new WeakMap<object, ResourceConfig>();

/** The config of a Resource class, created from its parent's on first use. */
export function configOf(resourceClass: object): ResourceConfig {
  const own = configs.get(resourceClass);
  if (own) return own;
  const parent = Object.getPrototypeOf(resourceClass) as object | null;
  const inherited = parent && typeof parent === 'function' && parent !== Function.prototype ? configOf(parent) : undefined;
  const created = inherited ? inherit(inherited) : fresh();
  configs.set(resourceClass, created);
  bumpRevision();
  registerResource(resourceClass);
  return created;
}

function fresh(): ResourceConfig {
  return {
    settings: { ...DEFAULT_SETTINGS },
    abstractClass: false,
    secondaryEndpoints: [],
    attributes: new Map(),
    filters: new Map(),
    sorts: new Map(),
    stats: new Map(),
    extraAttributeHooks: new Map(),
    relationships: new Map(),
    hooks: [],
    guards: [],
    rules: [],
  };
}

function inherit(parent: ResourceConfig): ResourceConfig {
  return {
    settings: { ...parent.settings },
    abstractClass: false,
    secondaryEndpoints: [...parent.secondaryEndpoints],
    attributes: new Map(parent.attributes),
    filters: new Map(parent.filters),
    sorts: new Map(parent.sorts),
    stats: new Map(parent.stats),
    extraAttributeHooks: new Map(parent.extraAttributeHooks),
    paginate: parent.paginate,
    relationships: new Map(parent.relationships),
    polymorphicColumn: parent.polymorphicColumn,
    hooks: [...parent.hooks],
    guards: [...parent.guards],
    rules: [...parent.rules],
    softDelete: parent.softDelete,
  };
}
