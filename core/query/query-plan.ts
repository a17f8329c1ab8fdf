import type { KeysetKey, SortDirection } from '../adapter/adapter.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import type { ResolvedFilter } from './resolved-filter.ts';
import type { IncludeNode } from './include-tree.ts';
import type { NodeParams } from './deep-params.ts';
import type { RelatedFilter } from './related-filters.ts';
import type { RelationshipDefinition } from '../resource/relationship-definition.ts';

export interface FilterCondition {
  readonly filter: ResolvedFilter;
  readonly operator: string;
  /** Coerced values; what a custom operator receives is `single ? values[0] : values`. */
  readonly values: readonly unknown[];
  readonly parameter: string;
}

export interface SortCondition {
  readonly name: string;
  readonly direction: SortDirection;
  /** `sort=department.name`: the to-one relationships leading to the Resource whose attribute `name` is. */
  readonly related?: readonly RelatedSortHop[];
}

/** One to-one relationship of a related sort, and the Resource it leads to. */
export interface RelatedSortHop {
  readonly relationship: RelationshipDefinition;
  readonly resource: typeof ResourceBase;
  /** What the relationship's `params` block filters its records by. */
  readonly filters: readonly FilterCondition[];
}

export interface PageRequest {
  readonly size: number;
  readonly number: number;
  /** Cursor pagination (`page[after]`, `page[before]`) instead of offsets. */
  readonly keyset?: KeysetRequest;
}

/** A cursor page: where it starts and the order its cursors encode. */
export interface KeysetRequest {
  /** The sort, then the id: the values a cursor carries, in the requested direction. */
  readonly keys: readonly KeysetKey[];
  /** `after`: the records following the position; `before`: those preceding it. */
  readonly direction: 'after' | 'before';
  /** The position, one value per key; undefined: from the first (`after`) or last (`before`) record. */
  readonly values?: readonly unknown[];
  /** The cursor as given, to link back to the same position. */
  readonly token?: string;
  /** What cursors of this order are bound to: the type and the keys. */
  readonly signature: string;
}

export interface StatRequest {
  readonly name: string;
  readonly calculations: readonly string[];
}

/**
 * A validated, coerced query for one Resource: what the scope stage applies.
 * Built from QueryParams by build-query.ts; every user mistake was reported
 * there, so later stages can trust it.
 */
export interface QueryPlan {
  readonly resource: typeof ResourceBase;
  readonly filters: readonly FilterCondition[];
  /** `filter[has]` and `filter[has_no]`: conditions on related records. */
  readonly related?: readonly RelatedFilter[];
  readonly sorts: readonly SortCondition[];
  /** Undefined means unpaginated (sideloads). */
  readonly page?: PageRequest;
  /** Sideloads only: at most this many records per parent (`page[<type>][size]`). */
  readonly perParentLimit?: number;
  readonly stats: readonly StatRequest[];
  /** Sparse fieldsets by type; a type absent from the map renders every readable field. */
  readonly fields: ReadonlyMap<string, ReadonlySet<string>>;
  readonly extraFields: ReadonlyMap<string, ReadonlySet<string>>;
  /** `meta_fields[type]`: what each record of the type carries in its `meta` (`permissions`); absent when none asked. */
  readonly metaFields?: ReadonlyMap<string, ReadonlySet<string>>;
  /** Records may be plain rows (see canUsePlainRecords). */
  readonly plain?: boolean;
  /** What to sideload under these records. */
  readonly include: readonly IncludeNode[];
  /** The deep parameters of every include node of the request. */
  readonly nodeParams: ReadonlyMap<IncludeNode, NodeParams>;
}
