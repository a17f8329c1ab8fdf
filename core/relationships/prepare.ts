import type { JoinTable } from '../adapter/adapter.ts';
import { declareFilter } from '../resource/declare.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import type { RelationshipDefinition } from '../resource/relationship-definition.ts';
import { foreignKeyOf, otherKeyOf } from './relationship-keys.ts';
import { registeredResources, registryRevision } from '../resource/resource-registry.ts';
import { relatedResourceIfAny } from '../resource/resolve-resource.ts';

type ResourceClass = typeof ResourceBase;

let preparedRevision = -1;

/**
 * Adds what relationships imply on the other side: a many_to_many gives its
 * related Resource the inverse filter (`filter[employee_id]` on teams) its
 * links point at. Runs before the first query after any Resource is declared.
 */
export function prepareResources(): void {
  if (preparedRevision === registryRevision()) return;
  for (const resource of registeredResources() as ResourceClass[]) {
    if (resource.abstractClass) continue;
    for (const relationship of resource.config.relationships.values()) {
      if (relationship.kind === 'many_to_many' && relationship.owner === resource) addInverseFilter(relationship);
    }
  }
  preparedRevision = registryRevision();
}

function addInverseFilter(relationship: RelationshipDefinition): void {
  const related = relatedResourceIfAny(relationship);
  if (!related) return; // reported when the relationship is used
  const name = foreignKeyOf(relationship);
  if (related.config.attributes.has(name)) return;
  const join: JoinTable = { table: relationship.joinTable!, parentKey: name, childKey: otherKeyOf(related), primaryKey: relationship.primaryKey };
  declareFilter(related.config, related.name, name, [
    'integer_id',
    { only: ['eq'] },
    { eq: (scope: unknown, ids: unknown[], resource: ResourceBase) => resource.adapter.filterThrough(scope, join, ids, false) },
  ]);
}
