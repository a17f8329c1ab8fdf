import { InvalidQueryError } from '../errors/index.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import type { SortDirection } from '../adapter/adapter.ts';
import { sortableNames } from './sortable-names.ts';
import type { SortCondition } from './query-plan.ts';
import { relatedSort } from './related-sort.ts';

/** Validates `sort` entries (already split, `-` kept) against one Resource. */
export function buildSorts(resource: ResourceBase, entries: readonly string[], parameter = 'sort'): SortCondition[] {
  const { config, type } = resource.resourceClass;
  const allowed = new Set(sortableNames(resource));
  return entries.map((entry) => {
    const direction: SortDirection = entry.startsWith('-') ? 'desc' : 'asc';
    const name = entry.replace(/^[-+]/, '');
    if (name.includes('.') && !allowed.has(name)) return relatedSort(resource, name, direction, parameter);
    if (!allowed.has(name)) {
      throw new InvalidQueryError('unknown_sort', `Unknown sort "${name}" on ${type}; sortable: ${[...allowed].join(', ') || 'none'}`, { parameter });
    }
    const only = config.sorts.get(name)?.options.only;
    if (only && only !== direction) {
      throw new InvalidQueryError('sort_direction_not_allowed', `Sort "${name}" on ${type} only allows ${only}`, { parameter });
    }
    return { name, direction };
  });
}

/** `defaultSort` as sort conditions, used when a request gives none. */
export function defaultSorts(resource: ResourceBase): SortCondition[] {
  const list = resource.resourceClass.defaultSort ?? [];
  return list.flatMap((entry) => Object.entries(entry).map(([name, direction]) => ({ name, direction })));
}
