import { equalityClause } from '../adapter/adapter.ts';
import { RecordNotFound } from '../errors/index.ts';
import { buildQuery } from '../query/build-query.ts';
import { loadRecords } from '../read/load-records.ts';
import { ruledScope } from '../rules/rule-scope.ts';
import { variantFor } from '../resource/polymorphism.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import type { LoadedRecord } from '../sideload/include-graph.ts';

type ResourceClass = typeof ResourceBase;

/**
 * The record a relationship read starts from, found exactly as `show` finds
 * it (the id coerced and matched through the base scope): a 404 when absent.
 * A model rather than a plain row, since a relationship's `params` block
 * receives it.
 */
export async function loadParent(parent: ResourceClass, id: unknown, baseScope?: unknown): Promise<LoadedRecord> {
  const resource = new parent();
  const { records } = await loadRecords(resource, buildQuery(resource, {}, { id }), { baseScope });
  const record = records[0] as object | undefined;
  if (!record) throw new RecordNotFound(parent.type, id);
  return { record, resource: variantFor(parent, record) };
}

/**
 * Records of `resourceClass` by their coerced ids, in one query through its
 * base scope (as a write finds the records it names): by `String(id)`.
 * `lock` keeps them locked until the write's transaction ends, where the
 * adapter can.
 */
export async function loadByKeys(resourceClass: ResourceClass, keys: readonly unknown[], lock = false): Promise<Map<string, object>> {
  const found = new Map<string, object>();
  if (keys.length === 0) return found;
  const resource = new resourceClass();
  const adapter = resource.adapter;
  const filtered = adapter.filter(ruledScope(resource, resource.baseScope()), equalityClause('id', keys, idTypeOf(resourceClass)));
  // in key order: two writes locking overlapping records take them in the same order, so neither holds one the other waits for
  const scope = lock && adapter.lockForUpdate ? adapter.lockForUpdate(adapter.order(filtered, 'id', 'asc')) : filtered;
  for (const record of (await resource.resolve(scope)) as Array<Record<string, unknown>>) found.set(String(record.id), record);
  return found;
}

/** Keys to load of one Resource, and whether to lock them. */
export interface KeyGroup {
  readonly keys: readonly unknown[];
  readonly lock: boolean;
}

/**
 * Records of several Resources by key (see loadByKeys), Resource by
 * Resource in the order of their types, each locked in key order where its
 * group says: any two writes locking overlapping records this way take them
 * in the same order, so one waits for the other instead of deadlocking.
 */
export async function loadInTypeOrder(groups: ReadonlyMap<ResourceClass, KeyGroup>): Promise<Map<ResourceClass, Map<string, object>>> {
  const found = new Map<ResourceClass, Map<string, object>>();
  const ordered = [...groups].sort(([a], [b]) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
  for (const [resource, { keys, lock }] of ordered) found.set(resource, await loadByKeys(resource, keys, lock));
  return found;
}

export function idTypeOf(resourceClass: ResourceClass): string {
  return resourceClass.config.attributes.get('id')?.type ?? 'integer_id';
}
