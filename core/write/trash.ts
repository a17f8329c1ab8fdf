import { Forbidden } from '../errors/index.ts';
import { resolveGuard } from '../resource/guard.ts';
import { modelValue } from '../resource/model-value.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { currentTransaction } from '../transaction.ts';

/**
 * What a destroy does to a record of a soft-deleting Resource: `trash` a
 * live one (its column set to now), `purge` one already trashed (deleted
 * for good, when the Resource's `purge` guard allows; a 403 otherwise);
 * `delete` for every other Resource.
 */
export function destroyKind(resource: ResourceBase, model: object): 'trash' | 'purge' | 'delete' {
  const softDelete = resource.resourceClass.config.softDelete;
  if (!softDelete) return 'delete';
  const mark = modelValue(model, softDelete.column);
  if (mark === null || mark === undefined) return 'trash';
  const guard = resolveGuard(softDelete.purge, resource, `${resource.resourceClass.name}.softDelete purge`);
  if (!(guard.fixed ?? guard.call(resource))) throw new Forbidden(resource.resourceClass.type, 'purge');
  return 'purge';
}

/** Marks the record trashed, inside the write's transaction. */
export async function trash(resource: ResourceBase, model: object): Promise<void> {
  resource.adapter.assign(model, { [resource.resourceClass.config.softDelete!.column]: new Date() });
  await resource.adapter.save(model, currentTransaction());
}
