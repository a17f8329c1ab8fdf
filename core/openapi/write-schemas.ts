import { servedResources } from '../resource/polymorphism.ts';
import { TO_MANY, type RelationshipDefinition } from '../resource/relationship-definition.ts';
import type { DescribedResource, OpenApiInput } from './openapi-input.ts';
import { relationshipTargets } from './openapi-input.ts';
import type { JsonSchema } from './openapi-types.ts';
import { schemaRef } from './references.ts';
import { joined } from './sentences.ts';
import { orNull, valueSchema } from './value-schemas.ts';

const METHODS = ['create', 'update', 'destroy', 'disassociate'];

/**
 * What create and update accept: the writable attributes and relationships
 * of each Resource, and documents that sidepost related records in
 * `included`, linked by `temp-id` (new records) or `id` (existing ones).
 */
export function writeSchemas(input: OpenApiInput): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  for (const described of input.resources) {
    const { component, resource } = described;
    schemas[`${component}.write-attributes`] = writeAttributes(described);
    schemas[`${component}.write-relationships`] = writeRelationships(described);
    for (const action of ['create', 'update'] as const) {
      schemas[`${component}.${action}`] = writeObject(described, action);
      const variants = servedResources(resource).map((r) => schemaRef(`${input.describe(r).component}.${action}`));
      schemas[`${component}.${action}-document`] = {
        type: 'object',
        required: ['data'],
        description: 'A JSON:API document; the primary record alone, without the `data` wrapper, is accepted too.',
        properties: {
          data: variants.length > 1 ? { oneOf: variants } : variants[0]!,
          included: {
            type: 'array',
            description: 'Related records written in the same transaction, each referred to from a relationship by `temp-id` (to create) or `id`.',
            items: { anyOf: input.reachable(resource).map((r) => schemaRef(`${r.component}.update`)) },
          },
          meta: { type: 'object' },
          jsonapi: schemaRef('jsonapi.jsonapi-object'),
        },
        additionalProperties: false,
      };
    }
  }
  return schemas;
}

function writeObject({ resource, component }: DescribedResource, action: 'create' | 'update'): JsonSchema {
  const id = action === 'update'
    ? { id: { type: ['string', 'integer'], description: 'When given, it must be the id in the URL (409 otherwise).' } }
    : resource.clientGeneratedIds
      ? { id: { type: ['string', 'integer'], description: 'A client-generated id, of the Resource\'s id type (400 otherwise); 409 `id_taken` when a record has it.' } }
      : {};
  return {
    type: 'object',
    required: ['type'],
    properties: {
      type: { const: resource.type },
      ...id,
      'temp-id': { type: 'string', minLength: 1, description: 'Names a record to create, so relationships can refer to it; echoed in the response.' },
      attributes: schemaRef(`${component}.write-attributes`),
      relationships: schemaRef(`${component}.write-relationships`),
      meta: { type: 'object' },
    },
    additionalProperties: false,
  };
}

function writeAttributes({ resource, schema }: DescribedResource): JsonSchema {
  const { config } = resource;
  const properties: Record<string, JsonSchema> = {};
  for (const [name, attribute] of Object.entries(schema.attributes)) {
    if (attribute.writable === false) continue;
    const guarded = attribute.writable === 'guarded';
    const description = joined(attribute.description, guarded ? 'Guarded: writable only when the guard allows; otherwise 422 `unwritable_attribute`.' : null);
    properties[name] = {
      ...orNull(valueSchema(attribute.type, 'write', config.attributes.get(name)?.allow)),
      ...(description ? { description } : {}),
      ...(guarded ? { 'x-mural-guard': true } : {}),
    };
  }
  const hidden = [...config.attributes.values()].some((a) => !a.schema && !a.extra && a.writable !== false);
  return {
    type: 'object',
    description: 'An unknown attribute is a 400; one that is not writable, a 422 `unwritable_attribute`.',
    properties,
    additionalProperties: hidden,
  };
}

function writeRelationships({ resource, view }: DescribedResource): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const relationship of view.relationships(resource, 'write')) {
    if (relationship.writable === false) continue;
    properties[relationship.name] = writeRelationship(relationship);
  }
  return { type: 'object', properties, additionalProperties: false };
}

function writeRelationship(relationship: RelationshipDefinition): JsonSchema {
  const types = [...new Set(relationshipTargets(relationship).map((r) => r.type))].sort();
  const identifier: JsonSchema = {
    type: 'object',
    required: ['type'],
    anyOf: [{ required: ['id'] }, { required: ['temp-id'] }],
    properties: {
      type: types.length > 0 ? { enum: types } : { type: 'string' },
      id: { type: ['string', 'integer'] },
      'temp-id': { type: 'string', minLength: 1 },
      method: {
        enum: METHODS,
        description: '`update` (link, and write the `included` entry if any) by default; `create` for a temp-id; `destroy` deletes the record; `disassociate` unlinks it.',
      },
      meta: { type: 'object' },
    },
    additionalProperties: false,
  };
  const many = TO_MANY.has(relationship.kind);
  const guarded = relationship.writable !== true;
  return {
    type: 'object',
    required: ['data'],
    description: joined(
      many ? 'The records to link, create, update, destroy or disassociate.' : 'The record to link (or write), or null to clear the relationship.',
      guarded ? 'Guarded: writable only when the guard allows; otherwise 422 `unwritable_relationship`, or the 400 `unknown_relationship` of an undeclared name when the caller may not read it either.' : null,
    ),
    properties: { data: many ? { type: 'array', items: identifier } : { anyOf: [identifier, { type: 'null' }] }, meta: { type: 'object' } },
    additionalProperties: false,
    ...(guarded ? { 'x-mural-guard': true } : {}),
  };
}
