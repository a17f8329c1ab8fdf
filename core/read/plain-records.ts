import { variantsOf } from '../query/include-tree.ts';
import { resolveGuard, type Guard } from '../resource/guard.ts';
import { Resource } from '../resource/resource.ts';

const verdicts = new WeakMap<object, boolean>();

/**
 * Whether a Resource's records can be rendered from plain rows instead of
 * model instances: nothing user-written receives a record (no attribute
 * blocks, no guards taking a model, no relationship blocks, no custom
 * resolve). Building model instances is most of an ORM's read cost, so the
 * HTTP path skips it whenever no user code could tell the difference.
 */
export function canUsePlainRecords(resource: typeof Resource): boolean {
  const known = verdicts.get(resource);
  if (known !== undefined) return known;
  const verdict = variantsOf(resource).every(ownVerdict);
  verdicts.set(resource, verdict);
  return verdict;
}

function ownVerdict(resource: typeof Resource): boolean {
  if (resource.prototype.resolve !== Resource.prototype.resolve) return false;
  const takesModel = (guard: Guard | 'required') =>
    typeof guard !== 'boolean' && guard !== 'required' && resolveGuard(guard, resource.prototype, resource.name).arity > 0;
  for (const attribute of resource.config.attributes.values()) {
    if (attribute.block || takesModel(attribute.readable)) return false;
  }
  for (const relationship of resource.config.relationships.values()) {
    if (relationship.params || relationship.assign || relationship.assignEach) return false;
  }
  return true;
}
