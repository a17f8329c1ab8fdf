import { didYouMean } from '../did-you-mean.ts';
import { InvalidQueryError } from '../errors/index.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import type { SortDirection } from '../adapter/adapter.ts';
import { sortableNames } from './sortable-names.ts';
import type { SortCondition } from './query-plan.ts';
import { relatedSort } from './related-sort.ts';

/**
 * Related sorts a request may give. Each orders every candidate row by a
 * chain of scalar subqueries, up to `maxIncludeDepth` hops long, so their
 * number multiplies a query's cost; three is more than any screen sorts by.
 */
export const MAX_RELATED_SORTS = 3;

/** Validates `sort` entries (already split, `-` kept) against one Resource. */
export function buildSorts(resource: ResourceBase, entries: readonly string[], parameter = 'sort'): SortCondition[] {
  const { config, type } = resource.resourceClass;
  const allowed = new Set(sortableNames(resource));
  checkSortList(entries, allowed, parameter);
  return entries.map((entry) => {
    const direction: SortDirection = entry.startsWith('-') ? 'desc' : 'asc';
    const name = entry.replace(/^[-+]/, '');
    if (name.includes('.') && !allowed.has(name)) return relatedSort(resource, name, direction, parameter);
    if (!allowed.has(name)) {
      throw new InvalidQueryError('unknown_sort', `Unknown sort "${name}" on ${type}; ${didYouMean(name, allowed)}sortable: ${[...allowed].join(', ') || 'none'}`, { parameter });
    }
    const only = config.sorts.get(name)?.options.only;
    if (only && only !== direction) {
      throw new InvalidQueryError('sort_direction_not_allowed', `Sort "${name}" on ${type} only allows ${only}`, { parameter });
    }
    return { name, direction };
  });
}

/**
 * A name sorted on twice orders nothing the first did not (and a related one
 * costs its subqueries again): a client repeating one has made a mistake, or
 * is multiplying the query's cost, so both are refused before any SQL.
 */
function checkSortList(entries: readonly string[], plain: ReadonlySet<string>, parameter: string): void {
  const seen = new Set<string>();
  let related = 0;
  for (const entry of entries) {
    const name = entry.replace(/^[-+]/, '');
    if (seen.has(name)) throw new InvalidQueryError('duplicate_sort', `sort names "${name}" more than once`, { parameter });
    seen.add(name);
    if (name.includes('.') && !plain.has(name) && ++related > MAX_RELATED_SORTS) {
      throw new InvalidQueryError('too_many_related_sorts', `sort names more than ${MAX_RELATED_SORTS} related attributes`, { parameter });
    }
  }
}

/** `defaultSort` as sort conditions, used when a request gives none. */
export function defaultSorts(resource: ResourceBase): SortCondition[] {
  const list = resource.resourceClass.defaultSort ?? [];
  return list.flatMap((entry) => Object.entries(entry).map(([name, direction]) => ({ name, direction })));
}
