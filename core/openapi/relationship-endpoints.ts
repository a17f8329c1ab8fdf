import { servedResources } from '../resource/polymorphism.ts';
import { TO_MANY, type RelationshipDefinition } from '../resource/relationship-definition.ts';
import { relationshipTargets, type OpenApiInput, type ResourceClass } from './openapi-input.ts';
import type { JsonSchema } from './openapi-types.ts';
import { componentKey, schemaRef } from './references.ts';

/** One relationship of the records an endpoint serves, and what the router serves for it. */
export interface RelationshipEndpoint {
  /** The endpoint's path: `{ns}/{type}`. */
  readonly path: string;
  /** The Resource of the endpoint (for a polymorphic parent, the relationship may be a child's). */
  readonly owner: ResourceClass;
  readonly relationship: RelationshipDefinition;
  readonly targets: readonly ResourceClass[];
  readonly toMany: boolean;
  /** The related and relationship reads: where the endpoint shows records. */
  readonly reads: boolean;
  /** The relationship writes: where the endpoint updates records. */
  readonly writes: boolean;
  /** The prefix of the components describing it. */
  readonly component: string;
}

/**
 * Every relationship endpoint the router serves: below each endpoint that
 * shows or updates records, one per relationship of the Resources whose
 * records it serves (a polymorphic parent's children included), as schema.json
 * lists the endpoints and their actions.
 */
export function relationshipEndpoints(input: OpenApiInput): RelationshipEndpoint[] {
  const endpoints: RelationshipEndpoint[] = [];
  for (const [path, { actions }] of Object.entries(input.schema.endpoints)) {
    const name = actions.show?.resource ?? actions.update?.resource;
    if (name === undefined) continue;
    const { resource: owner, view } = input.named(name);
    const seen = new Set<string>();
    const variants = servedResources(owner);
    const readable = new Set(variants.flatMap((r) => view.relationships(r, 'read')));
    const writable = new Set(variants.flatMap((r) => view.relationships(r, 'write')));
    for (const relationship of variants.flatMap((r) => [...r.config.relationships.values()])) {
      const reads = actions.show !== undefined && readable.has(relationship);
      const writes = actions.update !== undefined && writable.has(relationship);
      if (seen.has(relationship.name) || (!reads && !writes)) continue;
      seen.add(relationship.name);
      endpoints.push({
        path,
        owner,
        relationship,
        targets: relationshipTargets(relationship).filter((t) => !t.abstractClass),
        toMany: TO_MANY.has(relationship.kind),
        reads,
        writes,
        component: componentKey(input.describe(owner).component, 'relationships', relationship.name),
      });
    }
  }
  return endpoints;
}

/**
 * The documents of each relationship endpoint: the linkage a read answers
 * (and a write, when the relationship ends up other than asked), the body a
 * write takes, and the related records' document where several Resources may
 * answer (a polymorphic belongs_to).
 */
export function relationshipSchemas(input: OpenApiInput): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  for (const endpoint of relationshipEndpoints(input)) {
    const { component, targets, toMany } = endpoint;
    const types = [...new Set(targets.map((t) => t.type))].sort();
    schemas[`${component}.linkage-document`] = linkageDocument(input, endpoint, types);
    if (endpoint.writes) schemas[`${component}.linkage-body`] = linkageBody(types, toMany);
    if (!toMany && primaryTargets(endpoint).length > 1) {
      schemas[`${component}.related-document`] = { anyOf: primaryTargets(endpoint).map((t) => schemaRef(`${input.describe(t).component}.related-document`)) };
    }
  }
  return schemas;
}

/** The document the related endpoint answers: a page of the related Resource's records, or one record (or null). */
export function relatedDocument(input: OpenApiInput, endpoint: RelationshipEndpoint): JsonSchema {
  const primary = primaryTargets(endpoint);
  const [first] = primary;
  if (first === undefined) return schemaRef('jsonapi.meta-document');
  if (endpoint.toMany) return schemaRef(`${input.describe(first).component}.collection-document`);
  if (primary.length > 1) return schemaRef(`${endpoint.component}.related-document`);
  return schemaRef(`${input.describe(first).component}.related-document`);
}

/**
 * The Resources whose endpoints' documents the related records take: the one
 * a relationship names (a polymorphic parent standing for its children), or
 * each group's of a polymorphic belongs_to.
 */
export function primaryTargets(endpoint: RelationshipEndpoint): ResourceClass[] {
  const { relationship, targets } = endpoint;
  if (relationship.kind !== 'polymorphic_belongs_to') return targets.slice(0, 1);
  // each group's Resource, without the children its variants add (the group's own document covers them)
  return targets.filter((t) => !targets.some((other) => other !== t && servedResources(other).length > 1 && servedResources(other).includes(t)));
}

function identifier(types: readonly string[], write: boolean): JsonSchema {
  return {
    type: 'object',
    required: ['type', 'id'],
    properties: {
      type: types.length > 0 ? { enum: [...types] } : { type: 'string' },
      id: write ? { type: ['string', 'integer'] } : { type: 'string' },
      ...(write ? { meta: { type: 'object' } } : {}),
    },
    additionalProperties: false,
  };
}

function linkage(types: readonly string[], toMany: boolean, write: boolean): JsonSchema {
  return toMany ? { type: 'array', items: identifier(types, write) } : { anyOf: [identifier(types, write), { type: 'null' }] };
}

function linkageDocument(input: OpenApiInput, { targets, toMany }: RelationshipEndpoint, types: readonly string[]): JsonSchema {
  const stats = [...new Set(targets.map((t) => `${input.describe(t).component}.stat-values`))].map(schemaRef);
  return {
    type: 'object',
    required: ['data', 'meta'],
    properties: {
      data: linkage(types, toMany, false),
      links: {
        type: 'object',
        required: ['self', 'related'],
        description: '`self` (with pagination links, for a to-many relationship) and `related`.',
        properties: Object.fromEntries(['self', 'related', 'first', 'prev', 'next', 'last'].map((name) => [name, { type: name === 'prev' || name === 'next' ? ['string', 'null'] : 'string' }])),
        additionalProperties: false,
      },
      meta: {
        type: 'object',
        properties: { stats: stats.length === 1 ? stats[0]! : { anyOf: stats } },
        additionalProperties: false,
      },
      jsonapi: schemaRef('jsonapi.jsonapi-object'),
    },
    additionalProperties: false,
  };
}

function linkageBody(types: readonly string[], toMany: boolean): JsonSchema {
  return {
    type: 'object',
    required: ['data'],
    description: toMany ? 'The members: resource identifiers of existing records.' : 'The record to set (an identifier), or null to clear the relationship.',
    properties: { data: linkage(types, toMany, true), meta: { type: 'object' }, jsonapi: schemaRef('jsonapi.jsonapi-object') },
    additionalProperties: false,
  };
}
