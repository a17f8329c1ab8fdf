import type { ResourceBase } from '../resource/resource-base.ts';
import type { RelatedSortHop, SortCondition } from '../query/query-plan.ts';
import type { SortDirection } from '../adapter/adapter.ts';
import { InvalidQueryError } from '../errors/index.ts';
import { foreignKeyOf } from '../relationships/relationship-keys.ts';
import { applyFilters } from './apply-filters.ts';
import { ruledScope } from '../rules/rule-scope.ts';

/**
 * Orders the scope. The primary key always ends the order so that pages are
 * stable on every database (PostgreSQL returns ties in any order).
 */
export function applySorts(resource: ResourceBase, scope: unknown, sorts: readonly SortCondition[]): unknown {
  const { config } = resource.resourceClass;
  let current = scope;
  for (const { name, direction, related } of sorts) {
    if (related) {
      current = orderRelated(resource, current, related, name, direction);
      continue;
    }
    const block = config.sorts.get(name)?.block;
    current = block ? block(current as never, direction, resource as never) : resource.adapter.order(current, name, direction);
  }
  if (!sorts.some((s) => s.name === 'id' && !s.related) && config.attributes.get('id')?.sortable !== false) {
    current = resource.adapter.order(current, 'id', 'asc');
  }
  return current;
}

/** `sort=department.name`: each hop pairs keys as the relationship does, and reaches the related Resource's base scope. */
function orderRelated(resource: ResourceBase, scope: unknown, hops: readonly RelatedSortHop[], column: string, direction: SortDirection): unknown {
  const adapter = resource.adapter;
  if (!adapter.orderRelated) {
    throw new InvalidQueryError('unknown_sort', `${resource.resourceClass.type} cannot sort by related records: its adapter has no orderRelated`, { parameter: 'sort' });
  }
  const steps = hops.map(({ relationship, resource: related, filters }) => {
    const pk = relationship.primaryKey;
    const belongs = relationship.kind === 'belongs_to';
    const parentKey = belongs ? foreignKeyOf(relationship) : pk;
    const relatedKey = belongs ? pk : foreignKeyOf(relationship);
    const instance = new related();
    return { parentKey, relatedKey, scope: applyFilters(instance, ruledScope(instance, instance.baseScope()), filters) };
  });
  return adapter.orderRelated(scope, steps, column, direction);
}
