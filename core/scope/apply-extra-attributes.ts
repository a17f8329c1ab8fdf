import type { ResourceBase } from '../resource/resource-base.ts';

/** Runs the `onExtraAttribute` hooks of the extra attributes a request asked for. */
export function applyExtraAttributeHooks(resource: ResourceBase, scope: unknown, requested: ReadonlySet<string> | undefined): unknown {
  if (!requested) return scope;
  let current = scope;
  for (const name of requested) {
    for (const hook of resource.resourceClass.config.extraAttributeHooks.get(name) ?? []) {
      current = hook(current as never, resource as never);
    }
  }
  return current;
}
