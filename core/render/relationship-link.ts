import type { RelationshipDefinition } from '../resource/relationship-definition.ts';
import { foreignKeyOf, typeColumnOf } from '../relationships/relationship-keys.ts';
import { relatedResource } from '../resource/resolve-resource.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { configurationCache } from '../resource/revision.ts';
import { quoted } from './json-text.ts';

type ResourceClass = typeof ResourceBase;

/** The `links` of a relationship object. */
export interface RelationshipLinks {
  self?: string;
  related: string;
}

/**
 * The `links` of one relationship of a record (`id` is its rendered id), or
 * none. See the `relationshipLinks` setting for the two styles.
 */
export type LinksBuilder = (record: Record<string, unknown>, id: string) => RelationshipLinks | undefined;

/**
 * The end of a relationship object written as text: `,"links":{…}}`, or
 * `}` where there are no links. Its constant parts are built once, so a
 * record's member is a handful of pieces: the text of a document is joined
 * from them, and the join's cost is counted in pieces.
 */
export type LinksTextBuilder = (record: Record<string, unknown>, id: string) => string;

/** A relationship's links builders, as objects and as JSON text. */
export interface CompiledLinks {
  readonly object: LinksBuilder;
  readonly text: LinksTextBuilder;
  /** In the endpoints style, the text's constant parts, for writers that encode a record's id once for all its relationships. */
  readonly endpoint?: EndpointLinksText;
}

/**
 * The end of a relationship object in the endpoints style, as constant text
 * around the record's id (encoded by `encodePathSegment`): `beforeSelf`, the
 * id, `beforeRelated`, the id, `end`.
 */
export interface EndpointLinksText {
  readonly beforeSelf: string;
  readonly beforeRelated: string;
  readonly end: string;
}

/**
 * `links.related` in the `filters` style: the related Resource's index with
 * the filter that selects the record's related records. None when the related
 * Resource has no index endpoint, or a belongs_to key is null.
 */
type LinkBuilder = (record: Record<string, unknown>) => string | undefined;

const compiled = configurationCache<RelationshipDefinition, CompiledLinks>();
const NO_LINKS: CompiledLinks = { object: () => undefined, text: () => '}' };

/**
 * The links of one relationship, compiled once per Resource and relationship
 * until a declaration or a registered Resource could change the answer:
 * every request builds serializers, and the links are all static configuration.
 */
export function cachedRelationshipLinks(owner: ResourceClass, relationship: RelationshipDefinition): CompiledLinks {
  return compiled(relationship, owner, () => compileLinks(owner, relationship));
}

function compileLinks(owner: ResourceClass, relationship: RelationshipDefinition): CompiledLinks {
  if (!relationship.link || !owner.autolink) return NO_LINKS;
  if (owner.relationshipLinks === 'endpoints') {
    const url = memberUrl(owner);
    if (url === undefined) return NO_LINKS;
    const links = endpointLinks(url, relationship.name);
    const endpoint = endpointLinksText(url, relationship.name);
    const { beforeSelf, beforeRelated, end } = endpoint;
    const text: LinksTextBuilder = (_record, id) => {
      const member = encodePathSegment(id);
      return beforeSelf + member + beforeRelated + member + end;
    };
    return { object: (_record, id) => links(id), text, endpoint };
  }
  const related = compileRelatedLink(owner, relationship);
  return {
    object: (record) => {
      const link = related(record);
      return link === undefined ? undefined : { related: link };
    },
    text: (record) => {
      const link = related(record);
      return link === undefined ? '}' : `,"links":{"related":${quoted(link)}}}`;
    },
  };
}

/**
 * Where a Resource's records are, `{baseUrl}{namespace}{path}`, when its
 * primary endpoint shows them: the relationship endpoints hang below it.
 */
export function memberUrl(owner: ResourceClass): string | undefined {
  if (!owner.endpoint.actions.includes('show')) return undefined;
  return `${owner.baseUrl ?? ''}${owner.endpointNamespace ?? ''}${owner.endpoint.path}`;
}

/** The relationship endpoints of one record, for documents built outside an HTTP request. */
export function relationshipUrls(owner: ResourceClass, id: string, name: string): Required<RelationshipLinks> | undefined {
  const url = memberUrl(owner);
  return url === undefined ? undefined : endpointLinks(url, name)(id);
}

/** A relationship's endpoint links by record id; the name's part of both is the same for every record, so it is built once. */
function endpointLinks(url: string, name: string): (id: string) => Required<RelationshipLinks> {
  const self = `/relationships/${encodePathSegment(name)}`;
  const related = `/${encodePathSegment(name)}`;
  return (id) => {
    const member = `${url}/${encodePathSegment(id)}`;
    return { self: member + self, related: member + related };
  };
}

/**
 * `endpointLinks` as the end of a relationship object's text. The parts
 * from the configuration are escaped once; `encodePathSegment` leaves an id
 * only characters JSON needs no escape for.
 */
function endpointLinksText(url: string, name: string): EndpointLinksText {
  const base = `${JSON.stringify(url).slice(0, -1)}/`;
  return {
    beforeSelf: `,"links":{"self":${base}`,
    beforeRelated: `${JSON.stringify(`/relationships/${encodePathSegment(name)}`).slice(1)},"related":${base}`,
    end: `${JSON.stringify(`/${encodePathSegment(name)}`).slice(1)}}}`,
  };
}

/**
 * The link of one relationship, with everything that does not depend on the
 * record (target endpoint, key names) worked out once: serializers call the
 * result for every record.
 */
function compileRelatedLink(owner: ResourceClass, relationship: RelationshipDefinition): LinkBuilder {
  const none: LinkBuilder = () => undefined;
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
      const suffix = `&filter[${typeColumnOf(relationship)}]=${encodePathSegment(owner.type)}`;
      return (record) => `${url}?filter[${foreignKey}]=${encodePathSegment(record[primaryKey])}${suffix}`;
    }
    default:
      return (record) => `${url}?filter[${foreignKey}]=${encodePathSegment(record[primaryKey])}`;
  }
}

function keyLink(url: string | undefined, foreignKey: string): LinkBuilder {
  if (url === undefined) return () => undefined;
  return (record) => {
    const key = record[foreignKey];
    return key === null || key === undefined ? undefined : `${url}?filter[id]=${encodePathSegment(key)}`;
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

/** A value as one segment of a URL path or query: integers and word characters as they are, anything else percent-encoded. */
export function encodePathSegment(value: unknown): string {
  // integer keys, the common case, never need escaping
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
  const text = String(value);
  return /^[\w-]*$/.test(text) ? text : encodeURIComponent(text);
}
