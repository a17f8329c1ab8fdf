import type { JoinTable } from '../adapter/adapter.ts';
import { ConflictError, ResourceConfigurationError } from '../errors/index.ts';
import { foreignKeyOf, otherKeyOf } from '../relationships/relationship-keys.ts';
import type { RelationshipDefinition } from '../resource/relationship-definition.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { registeredResources } from '../resource/resource-registry.ts';
import { relatedResourceIfAny } from '../resource/resolve-resource.ts';
import { configurationCache } from '../resource/revision.ts';
import { bumpLinkedThrough } from './linked-versions.ts';
import type { WriteNode } from './write-node.ts';
import type { WriteSession } from './write-session.ts';

type ResourceClass = typeof ResourceBase;

/** One join table a record of a Resource has rows in, seen from that record. */
interface JoinedSide {
  readonly join: JoinTable;
  /** The Resource of the records at the other end. */
  readonly other: ResourceClass;
  /** The relationship of the record's own Resource, when it declares one: its `onDestroy` decides. */
  readonly declared?: RelationshipDefinition;
}

const cache = configurationCache<ResourceClass, readonly JoinedSide[]>();

/**
 * Before a record is destroyed, its join rows, in every many-to-many
 * relationship either side declares: removed with it (the default,
 * `onDestroy: 'unlink'`), the records at the other end getting new
 * versions; or, for a relationship declared `onDestroy: 'refuse'`, the
 * destroy refused with a 409 while it has any.
 */
export async function unlinkOnDestroy(session: WriteSession, node: WriteNode): Promise<void> {
  const sides = joinedSides(node.resource);
  if (sides.length === 0) return;
  const adapter = session.adapterFor(node);
  const model = node.model as Record<string, unknown>;
  for (const { join, other, declared } of sides) {
    const parentId = model[join.primaryKey];
    if (declared?.onDestroy === 'refuse') {
      if (!adapter.hasLinks) throw new ResourceConfigurationError(`${node.resource.name}.${declared.name}: onDestroy 'refuse' needs an adapter that can count join rows (hasLinks)`);
      if (await adapter.hasLinks(join, parentId, session.transaction)) {
        throw new ConflictError(`${node.resource.type} ${node.id ?? String(model.id)} still has ${declared.name}; remove them first`, { pointer: node.location.pointer ?? undefined });
      }
      continue;
    }
    if (!adapter.unlinkAll) continue;
    await bumpLinkedThrough(other, join, parentId, [], session.transaction);
    await adapter.unlinkAll(join, parentId, [], session.transaction);
  }
}

/**
 * A many-to-many relationship replaced by `keep` (the children's keys) in
 * one statement: the members leaving get new versions, and so does the
 * parent; the kept ones are linked after.
 */
export async function replaceJoined(session: WriteSession, node: WriteNode, join: JoinTable, related: ResourceClass, keep: readonly unknown[]): Promise<void> {
  const adapter = session.adapterFor(node);
  const parentId = (node.model as Record<string, unknown>)[join.primaryKey];
  await bumpLinkedThrough(related, join, parentId, keep, session.transaction);
  await adapter.unlinkAll!(join, parentId, keep, session.transaction);
  session.linked.add(node.resource, join.primaryKey, parentId);
}

function joinedSides(resourceClass: ResourceClass): readonly JoinedSide[] {
  return cache(resourceClass, undefined, () => {
    const sides = new Map<string, JoinedSide>();
    for (const definition of resourceClass.config.relationships.values()) {
      const other = relatedResourceIfAny(definition);
      if (definition.kind !== 'many_to_many' || !other) continue;
      const join = { table: definition.joinTable!, parentKey: foreignKeyOf(definition), childKey: otherKeyOf(other), primaryKey: definition.primaryKey };
      sides.set(`${join.table}\u0000${join.parentKey}`, { join, other, declared: definition });
    }
    for (const owner of registeredResources() as ResourceClass[]) {
      if (owner.abstractClass || owner.model === undefined) continue;
      for (const definition of owner.config.relationships.values()) {
        const related = definition.kind === 'many_to_many' ? relatedResourceIfAny(definition) : undefined;
        if (!related || !(resourceClass === related || resourceClass.prototype instanceof related)) continue;
        const join = { table: definition.joinTable!, parentKey: otherKeyOf(related), childKey: foreignKeyOf(definition), primaryKey: definition.primaryKey };
        const key = `${join.table}\u0000${join.parentKey}`;
        if (!sides.has(key)) sides.set(key, { join, other: owner });
      }
    }
    return [...sides.values()];
  });
}
