import { equalityClause, type RelatedLink } from '../adapter/adapter.ts';
import { InvalidQueryError } from '../errors/index.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import type { RelatedFilter, RelatedTarget } from '../query/related-filters.ts';
import { foreignKeyOf, otherKeyOf, typeColumnOf } from '../relationships/relationship-keys.ts';
import { applyFilters } from './apply-filters.ts';
import { ruledScope } from '../rules/rule-scope.ts';

/** Narrows the scope to records with (or, for `has_no`, without) a related record meeting each filter's conditions. */
export function applyRelatedFilters(resource: ResourceBase, scope: unknown, filters: readonly RelatedFilter[]): unknown {
  let current = scope;
  for (const filter of filters) {
    const adapter = resource.adapter;
    if (!adapter.filterRelated) {
      throw new InvalidQueryError('unsupported_filter', `${resource.resourceClass.type} cannot filter by related records: its adapter has no filterRelated`, {
        parameter: filter.negated ? 'filter[has_no]' : 'filter[has]',
      });
    }
    const links = filter.targets.map((target) => relatedLink(resource, filter, target));
    current = adapter.filterRelated(current, { negated: filter.negated, links });
  }
  return current;
}

/** The related Resource's base scope narrowed by the conditions, nested ones included: what a related record must be. */
function relatedScope(target: RelatedTarget): { related: ResourceBase; scope: unknown } {
  const related = new target.resource();
  const filtered = applyFilters(related, ruledScope(related, related.baseScope()), target.filters);
  return { related, scope: applyRelatedFilters(related, filtered, target.nested) };
}

/** How each relationship kind pairs keys, as the sideload stage links records (relationship-links.ts). */
function relatedLink(resource: ResourceBase, filter: RelatedFilter, target: RelatedTarget): RelatedLink {
  const { relationship } = filter;
  const { related, scope } = relatedScope(target);
  const pk = relationship.primaryKey;
  switch (relationship.kind) {
    case 'belongs_to':
      return { parentKey: foreignKeyOf(relationship), relatedKey: pk, scope };
    case 'polymorphic_belongs_to':
      return {
        parentKey: target.group?.foreignKey ?? foreignKeyOf(relationship),
        relatedKey: pk,
        parentType: { column: relationship.groupBy!, value: target.group!.value },
        scope,
      };
    case 'many_to_many':
      return {
        parentKey: pk,
        relatedKey: pk,
        through: { table: relationship.joinTable!, parentColumn: foreignKeyOf(relationship), childColumn: otherKeyOf(target.resource) },
        scope,
      };
    case 'polymorphic_has_many': {
      const typed = related.adapter.filter(scope, equalityClause(typeColumnOf(relationship), [resource.resourceClass.type], 'string'));
      return { parentKey: pk, relatedKey: foreignKeyOf(relationship), scope: typed };
    }
    default:
      return { parentKey: pk, relatedKey: foreignKeyOf(relationship), scope };
  }
}
