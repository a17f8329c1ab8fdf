/**
 * The structural rules of a JSON:API 1.1 document, as a JSON Schema: what the
 * HTTP suites check every response against. Written from the specification's
 * "Document Structure" section; Mural's `temp-id` member on resource objects
 * is the one extension allowed. With the Atomic Operations extension, a
 * document holds `atomic:results` instead of `data` (its `ext` says so).
 */
const link = { oneOf: [{ type: 'string' }, { type: 'object', required: ['href'], properties: { href: { type: 'string' }, meta: { type: 'object' } } }, { type: 'null' }] };
const links = { type: 'object', additionalProperties: link };
const identifier = {
  type: 'object',
  required: ['type', 'id'],
  properties: { type: { type: 'string' }, id: { type: 'string' }, meta: { type: 'object' } },
  additionalProperties: false,
};
const relationship = {
  type: 'object',
  anyOf: [{ required: ['data'] }, { required: ['meta'] }, { required: ['links'] }],
  properties: {
    links: { type: 'object', properties: { self: link, related: link }, additionalProperties: link },
    data: { oneOf: [{ type: 'null' }, identifier, { type: 'array', items: identifier, uniqueItems: true }] },
    meta: { type: 'object' },
  },
  additionalProperties: false,
};
const memberName = '^[a-zA-Z0-9](?:[-\\w]*[a-zA-Z0-9])?$';
const resource = {
  type: 'object',
  required: ['type', 'id'],
  properties: {
    type: { type: 'string' },
    id: { type: 'string' },
    'temp-id': { type: 'string' },
    lid: { type: 'string' },
    attributes: { type: 'object', propertyNames: { pattern: memberName, not: { enum: ['relationships', 'links', 'id', 'type'] } } },
    relationships: { type: 'object', propertyNames: { pattern: memberName }, additionalProperties: relationship },
    links,
    meta: { type: 'object' },
  },
  additionalProperties: false,
};
const error = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    links,
    status: { type: 'string', pattern: '^[1-5][0-9][0-9]$' },
    code: { type: 'string' },
    title: { type: 'string' },
    detail: { type: ['string', 'null'] },
    source: {
      type: 'object',
      properties: { pointer: { type: 'string' }, parameter: { type: 'string' }, header: { type: 'string' } },
      additionalProperties: false,
    },
    meta: { type: 'object' },
  },
  additionalProperties: false,
};

export const jsonApiSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'JSON:API 1.1 document',
  type: 'object',
  oneOf: [
    {
      required: ['data'],
      properties: {
        data: { oneOf: [{ type: 'null' }, resource, { type: 'array', items: resource }] },
        included: { type: 'array', items: resource, uniqueItems: true },
        meta: { type: 'object' },
        links,
        jsonapi: { type: 'object' },
      },
      additionalProperties: false,
    },
    {
      required: ['errors'],
      properties: { errors: { type: 'array', items: error, minItems: 1 }, meta: { type: 'object' }, links, jsonapi: { type: 'object' } },
      additionalProperties: false,
    },
    {
      required: ['meta'],
      properties: { meta: { type: 'object' }, links, jsonapi: { type: 'object' } },
      additionalProperties: false,
    },
    {
      required: ['atomic:results', 'jsonapi'],
      properties: {
        'atomic:results': {
          type: 'array',
          minItems: 1,
          items: { type: 'object', properties: { data: { oneOf: [{ type: 'null' }, resource, { type: 'array', items: resource }] }, meta: { type: 'object' } }, additionalProperties: false },
        },
        meta: { type: 'object' },
        links,
        jsonapi: { type: 'object', required: ['ext'], properties: { ext: { type: 'array', contains: { const: 'https://jsonapi.org/ext/atomic' } } } },
      },
      additionalProperties: false,
    },
  ],
} as const;
