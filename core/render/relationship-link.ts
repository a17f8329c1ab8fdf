import type { RelationshipDefinition } from '../relationships/relationship-definition.ts';
import { foreignKeyOf, typeColumnOf } from '../relationships/relationship-keys.ts';
import { relatedResource } from '../relationships/resolve-resource.ts';
import type { Resource } from '../resource/resource.ts';

type ResourceClass = typeof Resource;

/**
 * `links.related` of one relationship of one record: the related Resource's
 * index with the filter that selects this record's related records. None when
 * links are off, the related Resource has no index endpoint, or a belongs_to
 * key is null.
 */
export function relatedLink(owner: ResourceClass, relationship: RelationshipDefinition, record: Record<string, unknown>): string | undefined {
  if (!relationship.link || !owner.autolink) return undefined;
  const target = targetOf(relationship, record);
  if (!target || !target.endpoint.actions.includes('index')) return undefined;
  const url = `${target.baseUrl ?? ''}${target.endpointNamespace ?? ''}${target.endpoint.path}`;
  const id = record[relationship.primaryKey];
  switch (relationship.kind) {
    case 'belongs_to':
    case 'polymorphic_belongs_to': {
      const group = relationship.groups?.find((g) => g.value === String(record[relationship.groupBy!]));
      const key = record[group?.foreignKey ?? foreignKeyOf(relationship)];
      return key === null || key === undefined ? undefined : `${url}?filter[id]=${encode(key)}`;
    }
    case 'polymorphic_has_many':
      return `${url}?filter[${foreignKeyOf(relationship)}]=${encode(id)}&filter[${typeColumnOf(relationship)}]=${encode(owner.type)}`;
    default:
      return `${url}?filter[${foreignKeyOf(relationship)}]=${encode(id)}`;
  }
}

function targetOf(relationship: RelationshipDefinition, record: Record<string, unknown>): ResourceClass | undefined {
  try {
    if (relationship.kind !== 'polymorphic_belongs_to') return relatedResource(relationship);
    const group = relationship.groups!.find((g) => g.value === String(record[relationship.groupBy!]));
    return group ? relatedResource(relationship, group.resource ?? group.value) : undefined;
  } catch {
    return undefined;
  }
}

function encode(value: unknown): string {
  return encodeURIComponent(String(value));
}
