import { servedResources } from '../resource/polymorphism.ts';
import { TO_MANY, type RelationshipDefinition } from '../resource/relationship-definition.ts';
import type { AttributeSchema, RelationshipSchema } from '../schema/schema-types.ts';
import { relationshipTargets, type DescribedResource, type OpenApiInput, type ResourceClass } from './openapi-input.ts';
import type { JsonSchema } from './openapi-types.ts';
import { schemaRef } from './references.ts';
import { joined } from './sentences.ts';
import { orNull, valueSchema } from './value-schemas.ts';

/**
 * The resource object each Resource renders, as JSON Schema: `id`, `type`,
 * the readable attributes (extra ones included: they appear when asked for),
 * and each relationship with its linkage, `meta.included` and related link.
 * Nothing is required beyond `id`, `type` and `attributes`: sparse fieldsets
 * and guards leave any member out.
 */
export function resourceObjectSchemas(input: OpenApiInput): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  for (const described of input.resources) {
    schemas[described.component] = readObject(described);
    const variants = servedResources(described.resource);
    if (variants.length > 1) {
      schemas[`${described.component}.variants`] = {
        description: `A ${described.resource.type} record renders as the child Resource it is (or as ${described.resource.type} when it is none of them).`,
        oneOf: variants.map((v) => schemaRef(input.describe(v).component)),
      };
    }
  }
  return schemas;
}

/** The records an endpoint of `resource` renders: its own schema, or a polymorphic parent's variants. */
export function recordRef(input: OpenApiInput, resource: ResourceClass): JsonSchema {
  const { component } = input.describe(resource);
  return schemaRef(servedResources(resource).length > 1 ? `${component}.variants` : component);
}

function readObject({ resource, schema, view }: DescribedResource): JsonSchema {
  const { config } = resource;
  const attributes: Record<string, JsonSchema> = {};
  for (const [name, attribute] of Object.entries(schema.attributes)) {
    if (name === 'id' || attribute.readable === false) continue;
    attributes[name] = attributeSchema(attribute, config.attributes.get(name)?.allow);
  }
  for (const [name, extra] of Object.entries(schema.extra_attributes)) {
    if (extra.readable === false) continue;
    const note = `Extra attribute: rendered only when requested with \`extra_fields[${resource.type}]=${name}\`.`;
    attributes[name] = { ...attributeSchema({ ...extra, writable: false }, undefined), description: joined(extra.description, note, guardNote(extra.readable)) };
  }
  // attributes left out of schema.json (`schema: false`) still render: the object stays open to them
  const hidden = [...config.attributes.values()].some((a) => !a.schema && a.name !== 'id' && a.readable !== false);
  const relationships: Record<string, JsonSchema> = {};
  for (const relationship of view.relationships(resource, 'read')) {
    relationships[relationship.name] = relationshipSchema(relationship, schema.relationships[relationship.name]);
  }
  const idType = config.attributes.get('id')?.type === 'uuid' ? { type: 'string', format: 'uuid' } : { type: 'string' };
  return {
    type: 'object',
    ...(schema.description ? { description: schema.description } : {}),
    required: ['id', 'type', 'attributes'],
    properties: {
      id: idType,
      type: { const: resource.type },
      attributes: { type: 'object', properties: attributes, additionalProperties: hidden },
      relationships: { type: 'object', properties: relationships, additionalProperties: false },
      'temp-id': { type: 'string', description: 'In a write\'s response: the temp-id the client gave a record it created.' },
      lid: { type: 'string', description: 'In an atomic operations result: the lid the client gave a record its `add` created.' },
      meta: {
        type: 'object',
        description: 'On a cursor page (`page[after]`, `page[before]`): `page.cursor`, the record\'s own cursor, to page on from it either way. Asked with `meta_fields[type]=permissions`: what the caller may do with the record.',
        properties: {
          page: { type: 'object', required: ['cursor'], properties: { cursor: { type: 'string' } }, additionalProperties: false },
          permissions: {
            type: 'object',
            required: ['update', 'destroy'],
            properties: { update: { type: 'boolean' }, destroy: { type: 'boolean' } },
            additionalProperties: false,
          },
        },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  };
}

function attributeSchema(attribute: AttributeSchema, allow: readonly unknown[] | undefined): JsonSchema {
  const schema = orNull(valueSchema(attribute.type, 'read', allow));
  const description = joined(attribute.description, guardNote(attribute.readable));
  return {
    ...schema,
    ...(description ? { description } : {}),
    ...(attribute.readable === 'guarded' ? { 'x-mural-guard': true } : {}),
  };
}

function relationshipSchema(relationship: RelationshipDefinition, entry: RelationshipSchema | undefined): JsonSchema {
  const types = [...new Set(relationshipTargets(relationship).map((r) => r.type))].sort();
  const many = TO_MANY.has(relationship.kind);
  const identifier: JsonSchema = {
    type: 'object',
    required: ['type', 'id'],
    properties: { type: types.length > 0 ? { enum: types } : { type: 'string' }, id: { type: 'string' } },
    additionalProperties: false,
  };
  const guarded = entry?.guard === true;
  const description = joined(
    relationship.description ?? null,
    `${relationship.kind} (${many ? 'to-many' : 'to-one'}) of ${types.join(', ') || 'an unknown type'}. Linkage (\`data\`) is present when the relationship is included; \`meta.included\` is false when it is not.`,
    guarded ? 'Guarded: rendered only when the guard allows the request to read it.' : null,
  );
  return {
    type: 'object',
    description,
    properties: {
      data: many ? { type: 'array', items: identifier } : { anyOf: [identifier, { type: 'null' }] },
      meta: schemaRef('jsonapi.relationship-meta'),
      links: schemaRef('jsonapi.relationship-links'),
    },
    additionalProperties: false,
    ...(guarded ? { 'x-mural-guard': true } : {}),
  };
}

function guardNote(flag: boolean | 'guarded'): string | null {
  return flag === 'guarded' ? 'Guarded: rendered only when the guard allows the request to read it.' : null;
}
