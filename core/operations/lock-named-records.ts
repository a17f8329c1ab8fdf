import { versionAttributeOf } from '../conditional/version.ts';
import { loadInTypeOrder } from '../related/load-parent.ts';
import { relatedResourceIfAny } from '../resource/resolve-resource.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { coerceId } from '../write/coerce-id.ts';
import type { ParsedOperation } from './parse-operations.ts';

type ResourceClass = typeof ResourceBase;

/**
 * Before the first of several operations runs, on a database with row
 * locks: the records the document names by id (each operation's record,
 * and the versioned members of its relationship operations), locked
 * Resource by Resource in the order of their types. Each write would lock
 * them anyway as it reaches them, in the document's order; two documents
 * naming the same records in opposite orders would then deadlock, and one
 * would wait a second for the database to notice. Taken in one order, the
 * second simply waits for the first. Ids that do not parse are left to the
 * operation, which answers for them.
 */
export async function lockNamedRecords(operations: readonly ParsedOperation[]): Promise<void> {
  if (operations.length < 2 || !new (operations[0]!.resource)().adapter.lockForUpdate) return;
  const groups = new Map<ResourceClass, Map<string, unknown>>();
  const add = (resource: ResourceClass, id: unknown) => {
    if (typeof id !== 'string' && typeof id !== 'number') return;
    let key: unknown;
    try {
      key = coerceId(resource, String(id));
    } catch {
      return;
    }
    let keys = groups.get(resource);
    if (!keys) groups.set(resource, (keys = new Map()));
    keys.set(String(key), key);
  };
  for (const operation of operations) {
    if (operation.kind === 'create') continue;
    const ref = operation.kind === 'update' ? (operation.ref ?? operation.named) : operation.ref;
    if (ref?.id !== undefined) add(operation.resource, ref.id);
    if (operation.kind === 'relationship') {
      const members = versionedMembers(operation.resource, operation.name);
      if (members) for (const item of [operation.data].flat()) add(members, (item as { id?: unknown } | null)?.id);
    }
  }
  await loadInTypeOrder(new Map([...groups].map(([resource, keys]) => [resource, { keys: [...keys.values()], lock: true }])));
}

/** The Resource of a relationship's members when they carry versions (and so are locked by the write); else undefined. */
function versionedMembers(resource: ResourceClass, name: string): ResourceClass | undefined {
  const definition = resource.config.relationships.get(name);
  const related = definition && definition.kind !== 'polymorphic_belongs_to' ? relatedResourceIfAny(definition) : undefined;
  return related && versionAttributeOf(related) !== undefined ? related : undefined;
}
