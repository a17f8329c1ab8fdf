import type { RelationshipDefinition } from '../resource/relationship-definition.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { resourceAllows } from '../resource/resource-guard.ts';
import { readableNow, targetResources, writableNow } from './include-tree.ts';

/**
 * Whether a relationship is hidden from this request: it may neither read
 * it (its readable guard, or a Resource it leads to refusing reads) nor
 * write it (its writable guard, or no Resource it leads to taking a create
 * or an update). A hidden relationship answers exactly as an unknown name
 * does on every route, so a refusal cannot tell a caller that it exists; one
 * the caller may read but not write is no secret, and stays a 422
 * `unwritable_relationship`.
 */
export function hiddenNow(resource: ResourceBase, relationship: RelationshipDefinition): boolean {
  return !readableNow(resource, relationship) && !mayWrite(resource, relationship);
}

function mayWrite(resource: ResourceBase, relationship: RelationshipDefinition): boolean {
  if (!writableNow(resource, relationship)) return false;
  let targets: ReturnType<typeof targetResources>;
  try {
    targets = targetResources(relationship);
  } catch {
    return true; // an unresolvable relationship is reported when it is used
  }
  return targets.some((target) => resourceAllows(target, 'update') || resourceAllows(target, 'create'));
}
