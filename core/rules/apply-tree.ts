import type { ConditionTree } from '../adapter/adapter.ts';
import { ResourceConfigurationError } from '../errors/index.ts';
import type { ResourceBase } from '../resource/resource-base.ts';

/**
 * Narrows `scope` to the records meeting `tree`: column conditions ANDed at
 * the top through the adapter's `filter`, which every adapter has (a
 * tenant's `company_id = 7` needs nothing more), the rest as one
 * `filterTree`.
 */
export function applyTree(resource: ResourceBase, scope: unknown, tree: ConditionTree): unknown {
  if (tree.kind === 'constant' && tree.value) return scope;
  const adapter = resource.adapter;
  const parts = tree.kind === 'and' ? tree.conditions : [tree];
  if (parts.every((part) => part.kind === 'clause')) {
    let current = scope;
    for (const part of parts) current = adapter.filter(current, (part as Extract<ConditionTree, { kind: 'clause' }>).clause);
    return current;
  }
  if (!adapter.filterTree) {
    throw new ResourceConfigurationError(`${resource.resourceClass.name}: its adapter has no filterTree, so its rules may only AND column conditions`);
  }
  return adapter.filterTree(scope, tree);
}
