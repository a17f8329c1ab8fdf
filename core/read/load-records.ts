import type { ResourceBase } from '../resource/resource-base.ts';
import type { QueryPlan } from '../query/query-plan.ts';
import { applyExtraAttributeHooks } from '../scope/apply-extra-attributes.ts';
import { applyFilters } from '../scope/apply-filters.ts';
import { applyRelatedFilters } from '../scope/apply-related-filters.ts';
import { applyPagination } from '../scope/apply-pagination.ts';
import { applySorts } from '../scope/apply-sorts.ts';
import { runStats, type StatsResult } from './run-stats.ts';
import { ruledScope, trashedOf } from '../rules/rule-scope.ts';
import { asksPermissions, withPermissions } from '../rules/permissions.ts';

export interface LoadedRecords {
  records: unknown[];
  stats: StatsResult;
  /** The filtered scope before sorting and pagination, for counts. */
  filteredScope: unknown;
  /** A cursor page: whether more records follow it in the direction it was read. */
  more?: boolean;
}

export interface LoadOptions {
  /** Replaces the Resource's base scope. */
  baseScope?: unknown;
  /** Narrows the scope to the children of known parents (sideloads). */
  link?: (scope: unknown) => unknown;
  /** Sideloads with `page[<type>][size]`: the column grouping records by parent. */
  groupColumn?: string;
}

/** The query's scopes: `filtered` (for counts and stats), and `page`, sorted and paginated, for the records. */
export interface RecordScopes {
  filtered: unknown;
  page: unknown;
}

/** scope: base scope, filters, then sorts and pagination. */
export function scopeRecords(resource: ResourceBase, plan: QueryPlan, options: LoadOptions = {}): RecordScopes {
  // the read rules narrow a scope given by the caller too: an in-process base scope never widens them
  let scope = ruledScope(resource, options.baseScope ?? resource.baseScope(), 'read', trashedOf(resource, plan.filters));
  if (options.link) scope = options.link(scope);
  scope = applyFilters(resource, scope, plan.filters);
  scope = applyRelatedFilters(resource, scope, plan.related ?? []);
  const filtered = scope;
  scope = applyExtraAttributeHooks(resource, scope, plan.extraFields.get(resource.resourceClass.type));
  if (plan.metaFields && asksPermissions(plan, resource.resourceClass.type)) scope = withPermissions(resource, scope);
  // a cursor page orders by its keyset, which is the sort and the id
  if (!plan.page?.keyset) scope = applySorts(resource, scope, plan.sorts);
  scope = applyPagination(resource, scope, plan.page);
  if (plan.perParentLimit !== undefined && options.groupColumn) {
    scope = resource.adapter.limitPerGroup(scope, options.groupColumn, plan.perParentLimit);
  }
  return { filtered, page: scope };
}

/**
 * scope → resolve: the records of `scopes` (built here unless given) and
 * the stats asked for, started together so a pooled database runs them at
 * once, then the Resource's `resolve`.
 */
export async function loadRecords(resource: ResourceBase, plan: QueryPlan, options: LoadOptions = {}, scopes = scopeRecords(resource, plan, options)): Promise<LoadedRecords> {
  const empty = plan.page?.size === 0 || plan.perParentLimit === 0;
  const reading = empty ? [] : resource.resolve(scopes.page, { plain: plan.plain ?? false });
  // without stats, no Promise.all: it costs promises of its own, and every sideload comes here
  const [records, stats] = plan.stats.length > 0 ? await Promise.all([reading, runStats(resource, scopes.filtered, plan.stats)]) : [await reading, {}];
  const keyset = plan.page?.keyset;
  if (!keyset) return { records, stats, filteredScope: scopes.filtered };
  // one record more than the page was read, in the keyset order or, before a position, against it
  const page = records.slice(0, plan.page!.size);
  if (keyset.direction === 'before') page.reverse();
  return { records: page, stats, filteredScope: scopes.filtered, more: records.length > plan.page!.size };
}
