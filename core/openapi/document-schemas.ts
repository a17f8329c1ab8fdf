import type { ResourceBase } from '../resource/resource-base.ts';
import type { StatDefinition } from '../resource/stat-definition.ts';
import type { DescribedResource, OpenApiInput } from './openapi-input.ts';
import type { JsonSchema } from './openapi-types.ts';
import { schemaRef } from './references.ts';
import { recordRef } from './resource-schemas.ts';
import { orNull, valueSchema } from './value-schemas.ts';

const JSONAPI_OBJECT = schemaRef('jsonapi.jsonapi-object');

/** The envelopes every endpoint shares: errors, a bare `meta`, pagination links, the `jsonapi` member. */
export const SHARED_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  'jsonapi.jsonapi-object': {
    type: 'object',
    description: 'The JSON:API version the server answers with (`1.1`) and the extensions it applied to this response.',
    required: ['version'],
    properties: {
      version: { type: 'string' },
      ext: { type: 'array', items: { type: 'string' } },
      profile: { type: 'array', items: { type: 'string' } },
      meta: { type: 'object' },
    },
    additionalProperties: false,
  },
  'jsonapi.error': {
    type: 'object',
    required: ['status', 'code', 'title'],
    properties: {
      status: { type: 'string', pattern: '^[1-5][0-9][0-9]$', description: 'The HTTP status, as a string.' },
      code: { type: 'string', description: 'A stable, machine-readable name of the problem (`unknown_filter`, `unprocessable_entity`…).' },
      title: { type: 'string' },
      detail: { type: ['string', 'null'] },
      source: {
        type: 'object',
        properties: {
          pointer: { type: 'string', description: 'The JSON Pointer of the body member at fault (`/data/attributes/age`).' },
          parameter: { type: 'string', description: 'The query parameter at fault, named in full (`filter[age][gte]`).' },
          header: { type: 'string', description: 'The request header at fault (`Accept`, `Content-Type`).' },
        },
        additionalProperties: false,
      },
      links: {
        type: 'object',
        properties: { type: { type: 'string', description: 'The kind of error, as the cursor pagination profile names it (`…/cursor-pagination/max-size-exceeded`).' } },
        additionalProperties: false,
      },
      meta: { type: 'object', description: 'For validation errors: `attribute`, `message`, `code`, and `relationship` for a sideposted record; for a page size over the maximum, `page.maxSize`.' },
    },
    additionalProperties: false,
  },
  'jsonapi.error-document': {
    type: 'object',
    required: ['errors'],
    properties: { errors: { type: 'array', minItems: 1, items: schemaRef('jsonapi.error') }, meta: { type: 'object' }, jsonapi: JSONAPI_OBJECT },
    additionalProperties: false,
  },
  'jsonapi.meta-document': {
    type: 'object',
    required: ['meta'],
    properties: { meta: { type: 'object' }, jsonapi: JSONAPI_OBJECT },
    additionalProperties: false,
  },
  'jsonapi.relationship-meta': {
    type: 'object',
    properties: { included: { type: 'boolean', description: 'false: the relationship was not included, so there is no linkage.' } },
    additionalProperties: false,
  },
  'jsonapi.relationship-links': {
    type: 'object',
    properties: {
      self: { type: 'string', description: 'The relationship endpoint (`relationshipLinks = \'endpoints\'`).' },
      related: { type: 'string', description: 'The related records: the related endpoint, or the related Resource\'s index filtered to them.' },
    },
    additionalProperties: false,
  },
  'jsonapi.pagination-links': {
    type: 'object',
    required: ['self', 'first'],
    properties: {
      ...Object.fromEntries(['self', 'first', 'last'].map((name) => [name, { type: 'string' }])),
      // cursor pages give null where no page is known to be, as the cursor pagination profile asks; offset pages leave them out
      ...Object.fromEntries(['prev', 'next'].map((name) => [name, { type: ['string', 'null'] }])),
    },
    additionalProperties: false,
  },
};

/**
 * Per Resource: the documents its endpoints answer (one record; a page of
 * records with pagination links), their `included` (any Resource the
 * relationships reach) and their `meta.stats`.
 */
export function documentSchemas(input: OpenApiInput): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  for (const described of input.resources) {
    const { component, resource } = described;
    const common = {
      included: schemaRef(`${component}.included`),
      meta: schemaRef(`${component}.meta`),
      jsonapi: JSONAPI_OBJECT,
    };
    schemas[`${component}.stat-values`] = statValues(resource);
    schemas[`${component}.meta`] = metaSchema(input, described);
    schemas[`${component}.included`] = {
      type: 'array',
      description: 'Related records asked for with `include`, or written alongside the primary record; each once.',
      items: { anyOf: input.reachable(resource).map((r) => schemaRef(r.component)) },
    };
    schemas[`${component}.document`] = {
      type: 'object',
      required: ['data', 'meta'],
      properties: { data: recordRef(input, resource), ...common },
      additionalProperties: false,
    };
    schemas[`${component}.related-document`] = {
      type: 'object',
      description: 'The record a to-one relationship holds, or null.',
      required: ['data', 'meta'],
      properties: { data: { anyOf: [recordRef(input, resource), { type: 'null' }] }, ...common },
      additionalProperties: false,
    };
    schemas[`${component}.collection-document`] = {
      type: 'object',
      required: ['data', 'meta'],
      properties: { data: { type: 'array', items: recordRef(input, resource) }, ...common, links: schemaRef('jsonapi.pagination-links') },
      additionalProperties: false,
    };
  }
  return schemas;
}

/**
 * `meta.stats`: the Resource's own stats by name, and those asked of
 * included records (`stats[positions][total]=count`) by their type.
 */
function metaSchema(input: OpenApiInput, { resource, component }: DescribedResource): JsonSchema {
  const own = statValues(resource).properties as Record<string, JsonSchema>;
  const stats: Record<string, JsonSchema> = { ...own };
  for (const related of input.reachable(resource)) {
    const byType = schemaRef(`${related.component}.stat-values`);
    const existing = stats[related.resource.type];
    stats[related.resource.type] = existing ? { anyOf: [existing, byType] } : byType;
  }
  return {
    type: 'object',
    properties: { stats: { type: 'object', description: `The statistics asked for with \`stats\` (see ${component}'s stats parameters).`, properties: sorted(stats), additionalProperties: false } },
    additionalProperties: false,
  };
}

/** One Resource's stats: each stat's calculations and the value each gives. */
function statValues(resource: typeof ResourceBase): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const stat of resource.config.stats.values()) {
    properties[stat.name] = {
      type: 'object',
      properties: Object.fromEntries([...stat.calculations.keys()].map((calc) => [calc, calculationValue(resource, stat, calc)])),
      additionalProperties: false,
    };
  }
  return { type: 'object', properties, additionalProperties: false };
}

function calculationValue(resource: typeof ResourceBase, stat: StatDefinition, calc: string): JsonSchema {
  const implementation = stat.calculations.get(calc);
  if (typeof implementation === 'function') return { description: 'A custom calculation.' };
  if (implementation === 'count') return { type: 'integer', minimum: 0 };
  const type = resource.config.attributes.get(stat.name)?.type;
  // averages and sums are numbers whatever the column; a big_decimal maximum too (drivers disagree on its text)
  if (type === undefined) return {};
  if (implementation === 'average' || implementation === 'sum' || type === 'big_decimal') return { type: ['number', 'null'] };
  return orNull(valueSchema(type, 'read'));
}

function sorted(record: Record<string, JsonSchema>): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
