import { InvalidQueryError } from '../errors/index.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import type { SortDirection } from '../adapter/adapter.ts';
import { relatedResource } from '../resource/resolve-resource.ts';
import { variantsOf } from '../resource/polymorphism.ts';
import { findRelationship, readableNow } from './include-tree.ts';
import { sortableNames } from './sortable-names.ts';
import { blockFilters } from './related-filters.ts';
import type { RelatedSortHop, SortCondition } from './query-plan.ts';

const TO_ONE = new Set(['belongs_to', 'has_one']);

/**
 * `sort=department.name`: a sortable attribute of a Resource reached through
 * readable belongs_to and has_one relationships. Anything else (a to-many or
 * polymorphic relationship, a guarded or custom sort, an unknown name) is the
 * same 400 as any unknown sort, so guarded names cannot be probed.
 */
export function relatedSort(resource: ResourceBase, name: string, direction: SortDirection, parameter: string): SortCondition {
  const segments = name.split('.');
  const attribute = segments.pop()!;
  const unknown = () =>
    new InvalidQueryError('unknown_sort', `Unknown sort "${name}" on ${resource.resourceClass.type}; a related sort names to-one relationships, then a sortable attribute`, { parameter });
  if (segments.length > resource.resourceClass.maxIncludeDepth) throw unknown();
  const hops: RelatedSortHop[] = [];
  let current = resource;
  for (const segment of segments) {
    const relationship = findRelationship(variantsOf(current.resourceClass), segment);
    if (!relationship || !TO_ONE.has(relationship.kind) || !readableNow(current, relationship)) throw unknown();
    const related = relatedResource(relationship);
    current = new related();
    hops.push({ relationship, resource: related, filters: blockFilters(relationship, current) });
  }
  const { config, type } = current.resourceClass;
  // a custom sort orders the related Resource's own scope; it cannot order another's
  if (!sortableNames(current).includes(attribute) || config.sorts.get(attribute)?.block) throw unknown();
  const only = config.sorts.get(attribute)?.options.only;
  if (only && only !== direction) {
    throw new InvalidQueryError('sort_direction_not_allowed', `Sort "${attribute}" on ${type} only allows ${only}`, { parameter });
  }
  return { name: attribute, direction, related: hops };
}
