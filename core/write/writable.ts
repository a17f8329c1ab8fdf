import { resolveGuard } from '../resource/guard.ts';
import type { ResourceBase } from '../resource/resource-base.ts';

/**
 * An attribute's writable guard for one record: on update the persisted
 * record, on create the new unsaved one (only handed over when the guard
 * declares a parameter for it).
 */
export function attributeWritable(resource: ResourceBase, name: string, model: object | undefined): boolean {
  const attribute = resource.resourceClass.config.attributes.get(name)!;
  if (typeof attribute.writable === 'boolean') return attribute.writable;
  const guard = resolveGuard(attribute.writable, resource, `${resource.resourceClass.name}.${name}`);
  return guard.fixed ?? guard.call(resource, model, name);
}
