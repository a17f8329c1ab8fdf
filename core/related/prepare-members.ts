import { muralConfig } from '../config.ts';
import { dictionary } from '../dictionary.ts';
import { BadRequestError, RecordNotFound, UnwritableError } from '../errors/index.ts';
import { variantFor } from '../resource/polymorphism.ts';
import { versionAttributeOf } from '../conditional/version.ts';
import { TO_MANY, type RelationshipDefinition } from '../resource/relationship-definition.ts';
import { relatedResource } from '../resource/resolve-resource.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { resourceAllows } from '../resource/resource-guard.ts';
import type { LoadedRecord } from '../sideload/include-graph.ts';
import type { WriteNode, WriteRelationship } from '../write/write-node.ts';
import { declaredBy, type RelationshipOperation } from './find-relationship.ts';
import { loadInTypeOrder } from './load-parent.ts';
import { readMembers } from './members.ts';
import type { ParsedLinkage } from './parse-linkage.ts';
import { relatedTarget } from './related-target.ts';

type ResourceClass = typeof ResourceBase;

/** A relationship write, parsed: the parent's node, whose one relationship carries the members. */
export interface RelationshipWritePlan {
  readonly parentClass: ResourceClass;
  readonly root: WriteNode;
  readonly operation: RelationshipOperation;
  readonly linkage: ParsedLinkage;
}

/**
 * Inside the write's transaction, before the write engine loads anything:
 * the parent record (its own child Resource, for a polymorphic parent),
 * every named member in one query per Resource (404 at its identifier when
 * absent), and the members to disassociate, as `include` sees them: for
 * PATCH the current members not named (a has_one's current record), for
 * DELETE the named records that are members (others are already absent).
 */
export async function prepareMembers(plan: RelationshipWritePlan): Promise<void> {
  const { root, parentClass } = plan;
  const relationship = root.relationships[0]!;
  const parent = await lockParentAndNamed(plan);
  root.model = parent;
  root.resource = variantFor(parentClass, parent);
  relationship.definition = declaredBy(root.resource, relationship.definition.name, parentClass.type);
  const target = relatedTarget(relationship.definition, { record: parent, resource: root.resource }, {});
  const named = new Set(plan.linkage.items.map((item) => String(item.key)));
  if (plan.operation === 'remove') {
    const members = new Set((await readMembers(target, { keys: [...named], limit: named.size })).map(idOf));
    relationship.items = plan.linkage.items.filter((item) => members.has(String(item.key)));
    for (const item of relationship.items) item.action = 'disassociate';
    return;
  }
  const replaces = plan.operation === 'replace' && (TO_MANY.has(relationship.definition.kind) || relationship.definition.kind === 'has_one');
  if (!replaces) return;
  if (replacesInOneStatement(root, relationship.definition)) {
    relationship.replacesAll = true;
    relationship.clear = false;
    return;
  }
  // every current member costs a save (its hooks run), so their number is bounded like any write's
  const current = await readMembers(target, { limit: muralConfig.maxWriteRecords + 1 });
  if (current.length > muralConfig.maxWriteRecords) {
    throw new BadRequestError('too_many_records', `Replacing ${relationship.definition.name} would touch more than ${muralConfig.maxWriteRecords} records`, { pointer: '/data' });
  }
  const leaving = current.filter((member) => !named.has(idOf(member))).map((member) => disassociation(relationship, parentClass, member));
  relationship.items = [...leaving, ...plan.linkage.items];
  relationship.clear = false;
}

/**
 * The parent and the named members, one query per Resource, so the write
 * engine has nothing left to look up. The parent is locked, so a concurrent
 * write to the same record's relationships waits, then reads what this one
 * left; so are versioned members, whose version the write moves. Locks are
 * taken Resource by Resource in the order of their types, whichever side the
 * write is made from: two writes linking the same pair from opposite sides
 * wait for each other rather than deadlock.
 */
async function lockParentAndNamed(plan: RelationshipWritePlan): Promise<object> {
  const { root, parentClass, linkage } = plan;
  const groups = new Map<ResourceClass, { keys: unknown[]; lock: boolean }>([[parentClass, { keys: [root.key], lock: true }]]);
  for (const item of linkage.items) {
    let group = groups.get(item.resource);
    if (!group) groups.set(item.resource, (group = { keys: [], lock: versionAttributeOf(item.resource) !== undefined }));
    group.keys.push(item.key);
  }
  const found = await loadInTypeOrder(groups);
  const parent = found.get(parentClass)!.get(String(root.key));
  if (!parent) throw new RecordNotFound(parentClass.type, root.id);
  linkage.items.forEach((item, i) => {
    item.model = found.get(item.resource)!.get(String(item.key));
    if (!item.model) throw new RecordNotFound(item.resource.type, item.id, { pointer: linkage.pointers[i] });
  });
  return parent;
}

/**
 * Whether a replace can leave the members out of it: a many-to-many
 * relationship whose members are all its join rows (no `params` block or
 * `assign` narrowing them), of one Resource the caller may update, on an
 * adapter that removes join rows in one statement. Then neither the members
 * are read nor their number bounded.
 */
function replacesInOneStatement(root: WriteNode, definition: RelationshipDefinition): boolean {
  if (definition.kind !== 'many_to_many' || definition.params || definition.assign || definition.assignEach) return false;
  const related = relatedResource(definition);
  if (related.polymorphic || !resourceAllows(related, 'update')) return false;
  return new root.resource().adapter.unlinkAll !== undefined;
}

/** A current member the write takes out of the relationship: the update of its key (or its join row's removal). */
function disassociation(relationship: WriteRelationship, parentClass: ResourceClass, member: LoadedRecord): WriteNode {
  const { name } = relationship.definition;
  if (!resourceAllows(member.resource, 'update')) throw new UnwritableError('relationship', name, parentClass.type, '/data');
  const id = idOf(member);
  return {
    resource: member.resource, action: 'disassociate', id, key: (member.record as { id?: unknown }).id, model: member.record,
    attributes: dictionary(), guardedAttributes: [], relationships: [],
    location: { pointer: null, relationship: { name, type: member.resource.type, id } },
  };
}

function idOf(member: LoadedRecord): string {
  return String((member.record as { id?: unknown }).id);
}
