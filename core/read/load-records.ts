import type { Resource } from '../resource/resource.ts';
import type { QueryPlan } from '../query/query-plan.ts';
import { applyExtraAttributeHooks } from '../scope/apply-extra-attributes.ts';
import { applyFilters } from '../scope/apply-filters.ts';
import { applyPagination } from '../scope/apply-pagination.ts';
import { applySorts } from '../scope/apply-sorts.ts';
import { runStats, type StatsResult } from './run-stats.ts';

export interface LoadedRecords {
  records: unknown[];
  stats: StatsResult;
  /** The filtered scope before sorting and pagination, for counts. */
  filteredScope: unknown;
}

export interface LoadOptions {
  /** Replaces the Resource's base scope. */
  baseScope?: unknown;
  /** Narrows the scope to the children of known parents (sideloads). */
  link?: (scope: unknown) => unknown;
  /** Sideloads with `page[<type>][size]`: the column grouping records by parent. */
  groupColumn?: string;
}

/** scope → resolve: base scope, filters, sorts, pagination, then the Resource's `resolve`. */
export async function loadRecords(resource: Resource, plan: QueryPlan, options: LoadOptions = {}): Promise<LoadedRecords> {
  let scope = options.baseScope ?? resource.baseScope();
  if (options.link) scope = options.link(scope);
  scope = applyFilters(resource, scope, plan.filters);
  const filteredScope = scope;
  scope = applyExtraAttributeHooks(resource, scope, plan.extraFields.get(resource.resourceClass.type));
  scope = applySorts(resource, scope, plan.sorts);
  scope = applyPagination(resource, scope, plan.page);
  if (plan.perParentLimit !== undefined && options.groupColumn) {
    scope = resource.adapter.limitPerGroup(scope, options.groupColumn, plan.perParentLimit);
  }
  const empty = plan.page?.size === 0 || plan.perParentLimit === 0;
  const records = empty ? [] : await resource.resolve(scope, { plain: plan.plain ?? false });
  const stats = plan.stats.length > 0 ? await runStats(resource, filteredScope, plan.stats) : {};
  return { records, stats, filteredScope };
}
