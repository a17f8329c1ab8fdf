import type { JoinTable } from '../adapter/adapter.ts';
import { relatedResource } from '../resource/resolve-resource.ts';
import { foreignKeyOf, otherKeyOf, typeColumnOf } from '../relationships/relationship-keys.ts';
import type { RelationshipDefinition } from '../resource/relationship-definition.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { versionOf } from '../conditional/version.ts';
import { ConflictError } from '../errors/conflict.ts';
import { deletingRefusal, savingRefusal } from './constraint-refusal.ts';
import { unlinkOnDestroy, replaceJoined } from './join-rows.ts';
import { LinkedVersions } from './linked-versions.ts';
import { runAround, runHooks } from './run-hooks.ts';
import { destroyKind, trash } from './trash.ts';
import type { WriteSession } from './write-session.ts';
import type { WriteNode, WriteRelationship } from './write-node.ts';

const PARENT_KINDS = new Set(['belongs_to', 'polymorphic_belongs_to']);

/**
 * Persists a record and its graph: the records it belongs to first, then the
 * record, then its children with their foreign keys set, then join rows.
 */
export async function persistNode(session: WriteSession, node: WriteNode, skip: string[] = []): Promise<void> {
  const destroyAfter: WriteNode[] = [];
  for (const relationship of node.relationships.filter((r) => PARENT_KINDS.has(r.definition.kind))) {
    await persistParents(session, node, relationship, destroyAfter);
  }
  await saveRecord(session, node, skip);
  for (const item of destroyAfter) await destroyRecord(session, item);
  for (const relationship of node.relationships.filter((r) => !PARENT_KINDS.has(r.definition.kind))) {
    if (relationship.definition.kind === 'many_to_many') await persistJoined(session, node, relationship);
    else await persistChildren(session, node, relationship);
  }
}

async function persistParents(session: WriteSession, node: WriteNode, relationship: WriteRelationship, destroyAfter: WriteNode[]): Promise<void> {
  const definition = relationship.definition;
  const typeColumn = definition.kind === 'polymorphic_belongs_to' ? definition.groupBy! : undefined;
  if (relationship.clear) {
    node.attributes[foreignKeyOf(definition)] = null;
    return;
  }
  for (const item of relationship.items) {
    const group = typeColumn ? groupOf(definition, item) : undefined;
    const foreignKey = group?.foreignKey ?? foreignKeyOf(definition);
    if (item.action === 'create' || item.action === 'update') {
      await persistNode(session, item);
      node.attributes[foreignKey] = (item.model as Record<string, unknown>)[definition.primaryKey];
      if (typeColumn) node.attributes[typeColumn] = group!.value;
    } else {
      node.attributes[foreignKey] = null;
      if (item.action === 'destroy') destroyAfter.push(item);
    }
  }
}

function groupOf(definition: RelationshipDefinition, item: WriteNode) {
  return definition.groups!.find((g) => {
    const resource = relatedResource(definition, g.resource ?? g.value);
    return resource === item.resource || resource.type === item.resource.type;
  });
}

async function persistChildren(session: WriteSession, node: WriteNode, relationship: WriteRelationship): Promise<void> {
  const definition = relationship.definition;
  const foreignKey = foreignKeyOf(definition);
  const parentKey = (node.model as Record<string, unknown>)[definition.primaryKey];
  const link: Record<string, unknown> = { [foreignKey]: node.failed ? null : parentKey };
  if (definition.kind === 'polymorphic_has_many') link[typeColumnOf(definition)] = node.resource.type;
  for (const item of relationship.items) {
    if (item.action === 'create' || item.action === 'update') {
      Object.assign(item.attributes, link);
      await persistNode(session, item, node.failed ? [foreignKey] : []);
    } else if (item.action === 'disassociate') {
      item.attributes = { [foreignKey]: null };
      await saveRecord(session, item, []);
    } else {
      await destroyRecord(session, item);
    }
  }
}

async function persistJoined(session: WriteSession, node: WriteNode, relationship: WriteRelationship): Promise<void> {
  const definition = relationship.definition;
  const related = relatedResource(definition);
  const join: JoinTable = { table: definition.joinTable!, parentKey: foreignKeyOf(definition), childKey: otherKeyOf(related), primaryKey: definition.primaryKey };
  const adapter = session.adapterFor(node);
  const parentId = (node.model as Record<string, unknown>)[definition.primaryKey];
  for (const item of relationship.items) {
    if (item.action === 'create' || item.action === 'update') await persistNode(session, item);
  }
  if (node.failed || relationship.items.some((item) => item.failed)) return;
  const childIdOf = (item: WriteNode) => (item.model as Record<string, unknown>)[definition.primaryKey];
  if (relationship.replacesAll) await replaceJoined(session, node, join, related, relationship.items.map(childIdOf));
  for (const item of relationship.items) {
    const childId = childIdOf(item);
    let changed: boolean | void = true;
    if (item.action === 'create' || item.action === 'update') changed = await adapter.link(join, parentId, childId, session.transaction);
    else await adapter.unlink(join, parentId, childId, session.transaction);
    if (changed !== false) {
      // a join row is part of both records' documents
      session.linked.add(node.resource, definition.primaryKey, parentId);
      session.linked.add(item.resource, definition.primaryKey, childId);
    }
    if (item.action === 'destroy') await destroyRecord(session, item);
  }
}

/** build/find is done; assign, validate and save with every hook around it. */
async function saveRecord(session: WriteSession, node: WriteNode, skip: string[]): Promise<void> {
  const resource = session.resourceFor(node);
  const action = node.action === 'create' ? 'create' : 'update';
  const model = node.model!;
  const attributes = node.attributes;
  const linksBefore = node.action === 'create' ? undefined : LinkedVersions.read(node.resource, model);
  const versionBefore = versionOf(node.resource, model);
  await runAround(resource, 'aroundPersistence', action, [attributes], async () => {
    await runHooks(resource, 'beforeAttributes', action, attributes);
    await runAround(resource, 'aroundAttributes', action, [attributes], async () => {
      await resource.assignAttributes(model, attributes);
      return model;
    });
    await runHooks(resource, 'afterAttributes', action, model);
    await runHooks(resource, 'beforeSave', action, model);
    const problems = await resource.adapter.validate(model, skip);
    if (problems.length > 0 || skip.length > 0) {
      session.addProblems(node, problems);
      node.failed = true;
      return model;
    }
    if (node.touch) resource.adapter.touch?.(model);
    await runAround(resource, 'aroundSave', action, [model], () => saveOrReport(session, node, resource, model));
    session.linked.changed(node.resource, linksBefore, LinkedVersions.read(node.resource, model));
    session.linked.saved(node, versionBefore);
    await runHooks(resource, 'afterSave', action, model);
    session.processed.push(node);
    return model;
  });
}

async function saveOrReport(session: WriteSession, node: WriteNode, resource: ResourceBase, model: object): Promise<void> {
  try {
    await resource.save(model);
  } catch (error) {
    const refusal = savingRefusal(resource.adapter, error, node);
    if (refusal instanceof ConflictError) throw refusal;
    const problems = refusal ?? resource.adapter.validationProblems(error);
    if (!problems) throw error;
    // the database refused the row; its transaction may be unusable, so stop here
    session.addProblems(node, problems);
    node.failed = true;
    session.throwIfInvalid();
  }
}

export async function destroyRecord(session: WriteSession, node: WriteNode): Promise<void> {
  const resource = session.resourceFor(node);
  const model = node.model!;
  const kind = destroyKind(resource, model);
  const linksBefore = LinkedVersions.read(node.resource, model);
  await runHooks(resource, 'beforeDestroy', 'destroy', model);
  if (kind === 'trash') {
    // a trashed record keeps its links: a restore brings it back whole
    await trash(resource, model);
  } else {
    await unlinkOnDestroy(session, node);
    await resource.delete(model).catch((error: unknown) => {
      throw deletingRefusal(resource.adapter, error, node) ?? error;
    });
  }
  session.linked.changed(node.resource, linksBefore, undefined);
  await runHooks(resource, 'afterDestroy', 'destroy', model);
  session.processed.push(node);
}
