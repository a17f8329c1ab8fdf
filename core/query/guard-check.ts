import type { ResourceBase } from '../resource/resource-base.ts';
import { resolveGuard, type Guard } from '../resource/guard.ts';

/** Evaluates a model-less guard (filters, sorts, relationships) for this request. */
export function allowedNow(resource: ResourceBase, guard: Guard | 'required', owner: string): boolean {
  if (guard === 'required') return true;
  const resolved = resolveGuard(guard, resource, owner);
  return resolved.fixed ?? resolved.call(resource);
}
