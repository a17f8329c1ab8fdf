import { InvalidQueryError } from '../errors/index.ts';
import type { Resource } from '../resource/resource.ts';
import { buildFieldsets } from './build-fieldsets.ts';
import { buildFilters } from './build-filters.ts';
import { buildPage } from './build-page.ts';
import { buildSorts, defaultSorts } from './build-sorts.ts';
import { buildStats } from './build-stats.ts';
import { listOf, type QueryParams } from './query-params.ts';
import type { QueryPlan } from './query-plan.ts';

export interface BuildOptions {
  /** `find`: the id to match; disables pagination and required filters. */
  id?: unknown;
}

/**
 * parse → validate: turns QueryParams into a QueryPlan for `resource`, or
 * throws the first InvalidQueryError a user needs to fix.
 */
export function buildQuery(resource: Resource, params: QueryParams, options: BuildOptions = {}): QueryPlan {
  const resourceClass = resource.resourceClass;
  const single = options.id !== undefined;
  const rawFilter = asRecord(params.filter, 'filter');
  const filters = buildFilters(resource, single ? { ...rawFilter, id: options.id } : rawFilter, ['filter'], {
    enforceRequired: !single,
  });
  const sortEntries = listOf(params.sort);
  const sorts = sortEntries.length > 0 ? buildSorts(resource, sortEntries) : defaultSorts(resource);
  const pageParams = asRecord(params.page, 'page');
  checkPageKeys(pageParams);
  const byType = new Map([[resourceClass.type, [resourceClass]]]);
  const includes = listOf(params.include);
  for (const include of includes) {
    throw new InvalidQueryError('unknown_include', `Unknown include "${include}" on ${resourceClass.type}`, { parameter: 'include' });
  }
  return {
    resource: resourceClass,
    filters,
    sorts,
    page: single ? undefined : buildPage(resource, pageParams),
    stats: buildStats(resource, asRecord(params.stats, 'stats')),
    fields: buildFieldsets(asRecord(params.fields, 'fields'), 'fields', byType),
    extraFields: buildFieldsets(asRecord(params.extra_fields, 'extra_fields'), 'extra_fields', byType),
    includes: new Map(),
  };
}

function checkPageKeys(page: Record<string, unknown>): void {
  for (const key of Object.keys(page)) {
    if (key !== 'size' && key !== 'number') {
      throw new InvalidQueryError('unknown_page_parameter', `Unknown page parameter "${key}"; use page[size] and page[number]`, {
        parameter: `page[${key}]`,
      });
    }
  }
}

function asRecord(value: unknown, parameter: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new InvalidQueryError('invalid_parameter', `${parameter} must be given as ${parameter}[name]=value`, { parameter });
}
