import { muralConfig } from '../config.ts';
import { dictionary } from '../dictionary.ts';
import { BadRequestError, RecordNotFound, UnwritableError } from '../errors/index.ts';
import { variantFor } from '../resource/polymorphism.ts';
import { TO_MANY } from '../resource/relationship-definition.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { resourceAllows } from '../resource/resource-guard.ts';
import type { LoadedRecord } from '../sideload/include-graph.ts';
import type { WriteNode, WriteRelationship } from '../write/write-node.ts';
import { declaredBy, type RelationshipOperation } from './find-relationship.ts';
import { loadByKeys } from './load-parent.ts';
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
  // locked first: a concurrent write to the same record's relationships waits, then reads what this one left
  const [parent] = (await loadByKeys(parentClass, [root.key], true)).values();
  if (!parent) throw new RecordNotFound(parentClass.type, root.id);
  root.model = parent;
  root.resource = variantFor(parentClass, parent);
  relationship.definition = declaredBy(root.resource, relationship.definition.name, parentClass.type);
  await loadNamed(plan.linkage);
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
  // every current member costs a save (its hooks run), so their number is bounded like any write's
  const current = await readMembers(target, { limit: muralConfig.maxWriteRecords + 1 });
  if (current.length > muralConfig.maxWriteRecords) {
    throw new BadRequestError('too_many_records', `Replacing ${relationship.definition.name} would touch more than ${muralConfig.maxWriteRecords} records`, { pointer: '/data' });
  }
  const leaving = current.filter((member) => !named.has(idOf(member))).map((member) => disassociation(relationship, parentClass, member));
  relationship.items = [...leaving, ...plan.linkage.items];
  relationship.clear = false;
}

/** The named members, one query per Resource; the write engine then has nothing left to look up. */
async function loadNamed(linkage: ParsedLinkage): Promise<void> {
  const byResource = new Map<ResourceClass, WriteNode[]>();
  for (const item of linkage.items) byResource.set(item.resource, [...(byResource.get(item.resource) ?? []), item]);
  for (const [resource, items] of byResource) {
    const found = await loadByKeys(resource, items.map((item) => item.key));
    for (const item of items) {
      item.model = found.get(String(item.key));
      if (!item.model) throw new RecordNotFound(resource.type, item.id, { pointer: linkage.pointers[linkage.items.indexOf(item)] });
    }
  }
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
