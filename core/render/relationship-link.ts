import type { RelationshipDefinition } from '../relationships/relationship-definition.ts';
import { foreignKeyOf, typeColumnOf } from '../relationships/relationship-keys.ts';
import { relatedResource } from '../relationships/resolve-resource.ts';
import type { Resource } from '../resource/resource.ts';
import { configurationCache } from '../resource/revision.ts';

type ResourceClass = typeof Resource;

/**
 * `links.related` of one relationship of a record: the related Resource's
 * index with the filter that selects the record's related records. None when
 * links are off, the related Resource has no index endpoint, or a belongs_to
 * key is null.
 */
export type LinkBuilder = (record: Record<string, unknown>) => string | undefined;

const compiled = configurationCache<RelationshipDefinition, LinkBuilder>();

/**
 * `compileRelatedLink`, compiled once per Resource and relationship until a
 * declaration or a registered Resource could change the answer: every
 * request builds serializers, and the links are all static configuration.
 */
export function cachedRelatedLink(owner: ResourceClass, relationship: RelationshipDefinition): LinkBuilder {
  return compiled(relationship, owner, () => compileRelatedLink(owner, relationship));
}

/**
 * The link of one relationship, with everything that does not depend on the
 * record (target endpoint, key names) worked out once: serializers call the
 * result for every record.
 */
function compileRelatedLink(owner: ResourceClass, relationship: RelationshipDefinition): LinkBuilder {
  const none: LinkBuilder = () => undefined;
  if (!relationship.link || !owner.autolink) return none;
  if (relationship.kind === 'polymorphic_belongs_to') {
    const byValue = new Map(relationship.groups!.map((g) => [g.value, keyLink(endpointOf(targetOf(relationship, g.value)), g.foreignKey ?? foreignKeyOf(relationship))]));
    const column = relationship.groupBy!;
    return (record) => byValue.get(String(record[column]))?.(record);
  }
  const url = endpointOf(targetOf(relationship));
  if (url === undefined) return none;
  const primaryKey = relationship.primaryKey;
  const foreignKey = foreignKeyOf(relationship);
  switch (relationship.kind) {
    case 'belongs_to':
      return keyLink(url, foreignKey);
    case 'polymorphic_has_many': {
      const suffix = `&filter[${typeColumnOf(relationship)}]=${encode(owner.type)}`;
      return (record) => `${url}?filter[${foreignKey}]=${encode(record[primaryKey])}${suffix}`;
    }
    default:
      return (record) => `${url}?filter[${foreignKey}]=${encode(record[primaryKey])}`;
  }
}

function keyLink(url: string | undefined, foreignKey: string): LinkBuilder {
  if (url === undefined) return () => undefined;
  return (record) => {
    const key = record[foreignKey];
    return key === null || key === undefined ? undefined : `${url}?filter[id]=${encode(key)}`;
  };
}

function endpointOf(target: ResourceClass | undefined): string | undefined {
  if (!target || !target.endpoint.actions.includes('index')) return undefined;
  return `${target.baseUrl ?? ''}${target.endpointNamespace ?? ''}${target.endpoint.path}`;
}

function targetOf(relationship: RelationshipDefinition, groupValue?: string): ResourceClass | undefined {
  try {
    if (groupValue === undefined) return relatedResource(relationship);
    const group = relationship.groups!.find((g) => g.value === groupValue)!;
    return relatedResource(relationship, group.resource ?? group.value);
  } catch {
    return undefined;
  }
}

function encode(value: unknown): string {
  // integer keys, the common case, never need escaping
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  const text = String(value);
  return /^[\w-]*$/.test(text) ? text : encodeURIComponent(text);
}
