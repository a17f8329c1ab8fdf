import type { ResourceBase } from '../resource/resource-base.ts';
import type { SortCondition } from '../query/query-plan.ts';

/**
 * Orders the scope. The primary key always ends the order so that pages are
 * stable on every database (PostgreSQL returns ties in any order).
 */
export function applySorts(resource: ResourceBase, scope: unknown, sorts: readonly SortCondition[]): unknown {
  const { config } = resource.resourceClass;
  let current = scope;
  for (const { name, direction } of sorts) {
    const block = config.sorts.get(name)?.block;
    current = block ? block(current as never, direction, resource as never) : resource.adapter.order(current, name, direction);
  }
  if (!sorts.some((s) => s.name === 'id') && config.attributes.get('id')?.sortable !== false) {
    current = resource.adapter.order(current, 'id', 'asc');
  }
  return current;
}
