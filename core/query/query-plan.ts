import type { SortDirection } from '../resource/sort-definition.ts';
import type { Resource } from '../resource/resource.ts';
import type { ResolvedFilter } from './resolved-filter.ts';

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
}

export interface PageRequest {
  readonly size: number;
  readonly number: number;
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
  readonly resource: typeof Resource;
  readonly filters: readonly FilterCondition[];
  readonly sorts: readonly SortCondition[];
  /** Undefined means unpaginated (sideloads). */
  readonly page?: PageRequest;
  readonly stats: readonly StatRequest[];
  /** Sparse fieldsets by type; a type absent from the map renders every readable field. */
  readonly fields: ReadonlyMap<string, ReadonlySet<string>>;
  readonly extraFields: ReadonlyMap<string, ReadonlySet<string>>;
  /** Relationship name → the plan for its records. */
  readonly includes: ReadonlyMap<string, QueryPlan>;
}
