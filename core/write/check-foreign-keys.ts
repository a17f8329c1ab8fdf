import { equalityClause } from '../adapter/adapter.ts';
import { RecordNotFound } from '../errors/index.ts';
import { foreignKeyOf } from '../relationships/relationship-keys.ts';
import type { RelationshipDefinition } from '../resource/relationship-definition.ts';
import { relatedResource } from '../resource/resolve-resource.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { coerceId } from './coerce-id.ts';
import { modelValue } from '../resource/model-value.ts';
import { assertRuleAdmits } from '../rules/rule-checks.ts';
import { ruledScope } from '../rules/rule-scope.ts';
import type { WriteNode } from './write-node.ts';

type ResourceClass = typeof ResourceBase;

/**
 * A foreign key written as an attribute (`notable_id`, `department_id`)
 * names its record as a relationship's linkage would, so it is found the
 * same way: through the related Resource's base scope, a 404 at the
 * attribute when nothing is there, before anything is saved. Otherwise a
 * write through the attribute would store what the relationship endpoint
 * refuses (a team that does not exist, or one the base scope hides), and
 * a polymorphic key, which no database constraint can check, would dangle.
 * For a polymorphic belongs_to the type column, as written or as stored,
 * decides the Resource. A key the same write also sets by relationship is
 * left to it; a key left as it was costs no query.
 */
export async function checkForeignKeys(node: WriteNode, model: object): Promise<void> {
  if (node.action !== 'create' && node.action !== 'update') return;
  for (const definition of node.resource.config.relationships.values()) {
    if (definition.kind !== 'belongs_to' && definition.kind !== 'polymorphic_belongs_to') continue;
    if (node.relationships.some((relationship) => relationship.definition.name === definition.name)) continue;
    const target = targetOf(definition, node, model);
    if (!target || !changes(node, model, definition, target.foreignKey)) continue;
    const value = target.foreignKey in node.attributes ? node.attributes[target.foreignKey] : modelValue(model, target.foreignKey);
    if (value === undefined || value === null) continue;
    await assertExists(target.resource, definition, value, `${node.location.pointer ?? ''}/attributes/${target.foreignKey}`);
  }
}

interface KeyTarget {
  foreignKey: string;
  resource: ResourceClass;
}

/** Whether the write gives the key (or a polymorphic key's type) a value other than the stored one. */
function changes(node: WriteNode, model: object, definition: RelationshipDefinition, foreignKey: string): boolean {
  const columns = definition.kind === 'polymorphic_belongs_to' ? [foreignKey, definition.groupBy!] : [foreignKey];
  return columns.some((column) => column in node.attributes && (node.action === 'create' || !sameValue(modelValue(model, column), node.attributes[column])));
}

function targetOf(definition: RelationshipDefinition, node: WriteNode, model: object): KeyTarget | undefined {
  if (definition.kind === 'belongs_to') return { foreignKey: foreignKeyOf(definition), resource: relatedResource(definition) };
  const column = definition.groupBy!;
  const type = column in node.attributes ? node.attributes[column] : modelValue(model, column);
  const group = definition.groups?.find((candidate) => candidate.value === type);
  if (!group) return undefined;
  return { foreignKey: group.foreignKey ?? foreignKeyOf(definition), resource: relatedResource(definition, group.resource ?? group.value) };
}

async function assertExists(resourceClass: ResourceClass, definition: RelationshipDefinition, value: unknown, pointer: string): Promise<void> {
  const id = String(value);
  const key = coerceId(resourceClass, id, { pointer });
  const resource = new resourceClass();
  // a record the writer may not read is missing to it; one it may read but not link is a 403
  const scope = resource.adapter.filter(ruledScope(resource, resource.baseScope()), equalityClause(definition.primaryKey, [key], 'integer_id'));
  const [found] = (await resource.resolve(scope)) as object[];
  if (!found) throw new RecordNotFound(resourceClass.type, id, { pointer });
  await assertRuleAdmits(resourceClass, key, 'link', pointer, { keyColumn: definition.primaryKey });
}


/** Database values and written ones may differ in type (`7` and `'7'`, a bigint as a string): compared as text. */
function sameValue(stored: unknown, written: unknown): boolean {
  return stored !== undefined && stored !== null && String(stored) === String(written);
}
