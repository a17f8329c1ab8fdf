import { RelationshipNotFound, UnsupportedOperation, UnwritableError } from '../errors/index.ts';
import { hiddenNow } from '../query/hidden-relationship.ts';
import { findRelationship, readableNow, writableNow } from '../query/include-tree.ts';
import { servedResources } from '../resource/polymorphism.ts';
import { TO_MANY, type RelationshipDefinition } from '../resource/relationship-definition.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { assertAllowed } from '../resource/resource-guard.ts';

type ResourceClass = typeof ResourceBase;

/** What a write to `/relationships/{name}` does: PATCH replaces, POST adds, DELETE removes members. */
export type RelationshipOperation = 'replace' | 'add' | 'remove';

/**
 * The relationship a read of `{parent}/{id}/{name}` names, decided before any
 * query: the parent's `show` guard first (403, as on its own endpoint), then a
 * relationship some record of the parent may have and the request may read.
 * An unknown relationship and one whose readable guard (or its Resource's
 * guard) refuses get the same 404, as `include` drops both without a word.
 */
export function readableRelationship(parent: ResourceClass, name: string): RelationshipDefinition {
  assertAllowed(servedResources(parent), 'show', parent.type);
  const relationship = declaredRelationship(parent, name);
  if (!readableNow(new parent(), relationship)) throw new RelationshipNotFound(parent.type, name);
  return relationship;
}

/**
 * The relationship a write to `{parent}/{id}/relationships/{name}` names,
 * before any query: the parent's `update` guard (403), a known relationship
 * the caller may read or write (404 for an unknown one and a hidden one
 * alike, as a read answers), an operation it supports (403: only PATCH sets
 * a to-one relationship), and its writable guard (422
 * `unwritable_relationship`, as sideposting answers).
 */
export function writableRelationship(parent: ResourceClass, name: string, operation: RelationshipOperation): RelationshipDefinition {
  assertAllowed(servedResources(parent), 'update', parent.type);
  const relationship = declaredRelationship(parent, name);
  if (hiddenNow(new parent(), relationship)) throw new RelationshipNotFound(parent.type, name);
  if (operation !== 'replace' && !TO_MANY.has(relationship.kind)) {
    const verb = operation === 'add' ? 'POST' : 'DELETE';
    throw new UnsupportedOperation(`${name} is a to-one relationship of ${parent.type}: PATCH sets it; ${verb} only adds to or removes from to-many relationships`);
  }
  if (!writableNow(new parent(), relationship)) throw new UnwritableError('relationship', name, parent.type, '/data');
  return relationship;
}

/**
 * The relationship as the loaded record's own Resource declares it: a
 * polymorphic parent's relationship may belong to some children only
 * (`milestones` of epics), and a record of another child has no such
 * relationship, as `include` loads it for the epics alone.
 */
export function declaredBy(resource: ResourceClass, name: string, type: string): RelationshipDefinition {
  const relationship = resource.config.relationships.get(name);
  if (!relationship) throw new RelationshipNotFound(type, name);
  return relationship;
}

function declaredRelationship(parent: ResourceClass, name: string): RelationshipDefinition {
  const relationship = findRelationship(servedResources(parent), name);
  if (!relationship) throw new RelationshipNotFound(parent.type, name);
  return relationship;
}
