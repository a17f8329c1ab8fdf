import type { Action } from '../resource/action.ts';
import type { OpenApiInput, ResourceClass } from './openapi-input.ts';
import type { JsonSchema, PathItemObject } from './openapi-types.ts';
import { errorResponsesIn, JSONAPI } from './error-responses.ts';
import { responseRef, schemaRef } from './references.ts';
import { recordRef } from './resource-schemas.ts';

/** The atomic extension's media type, as `Content-Type` spells it (without spaces: how a response's is matched). */
export const ATOMIC_MEDIA_TYPE = 'application/vnd.api+json;ext="https://jsonapi.org/ext/atomic"';

const WRITES: readonly Action[] = ['create', 'update', 'destroy'];
/** Answered by the router before the endpoint runs, in the plain media type. */
const ROUTER_ERRORS = { '406': 'NotAcceptable', '413': 'PayloadTooLarge', '414': 'UriTooLong', '415': 'UnsupportedMediaType' } as const;
/** Answered by the endpoint in the extension's media type (a malformed body's 400, by the router, in the plain one). */
const OPERATION_ERRORS = ['400', '403', '404', '409', '412', '422', '500', '503'];

/**
 * `POST {ns}/operations` (JSON:API's Atomic Operations extension), for each
 * namespace of the served Resources, when the router serves it.
 */
export function operationPaths(input: OpenApiInput): Record<string, PathItemObject> {
  const paths: Record<string, PathItemObject> = {};
  for (const namespace of new Set(served(input).map((resource) => resource.endpointNamespace ?? ''))) {
    paths[`${namespace}/operations`] = {
      post: {
        operationId: `operations${namespace.replace(/[^A-Za-z0-9]+/g, '.').replace(/\.$/, '')}`,
        summary: 'Run several writes in one transaction (JSON:API Atomic Operations)',
        description:
          'Each operation adds, updates or removes a record, or adds, replaces or removes members of a relationship, in order and all or nothing. ' +
          'A later operation names a record an earlier `add` created by its `lid`. An operation is conditional on a record\'s version by `ref.meta.version` ' +
          '(or an update\'s `data.meta.version`): a 412 when the record changed. The errors of the failing operation point under it (`/atomic:operations/2/…`). ' +
          'The request\'s Content-Type must carry `ext="https://jsonapi.org/ext/atomic"` (415 otherwise).',
        tags: ['operations'],
        requestBody: { required: true, content: { [ATOMIC_MEDIA_TYPE]: { schema: schemaRef('atomic.operations-document') } } },
        responses: {
          '200': { description: 'Every operation succeeded: one result each, in order.', content: { [ATOMIC_MEDIA_TYPE]: { schema: schemaRef('atomic.results-document') } } },
          ...Object.fromEntries(Object.entries(ROUTER_ERRORS).map(([status, name]) => [status, responseRef(name)])),
          ...errorResponsesIn(OPERATION_ERRORS, [ATOMIC_MEDIA_TYPE, JSONAPI]),
        },
      },
    };
  }
  return paths;
}

/** The documents the operations endpoint takes and answers. */
export function operationSchemas(input: OpenApiInput): Record<string, JsonSchema> {
  const resources = served(input).filter((resource) => WRITES.some((action) => serves(resource, action)));
  const types = { enum: [...new Set(resources.map((resource) => resource.type))].sort() };
  const identity = { oneOf: [{ required: ['id'] }, { required: ['lid'] }] };
  const id = { type: ['string', 'integer'] };
  const lid = { type: 'string', minLength: 1, description: 'The local id an earlier `add` gave a record.' };
  const written = resources.filter((resource) => serves(resource, 'create') || serves(resource, 'update'));
  return {
    'atomic.identifier': { type: 'object', required: ['type'], ...identity, properties: { type: { type: 'string' }, id, lid, meta: { type: 'object' } }, additionalProperties: false },
    'atomic.ref': {
      type: 'object', required: ['type'], ...identity,
      properties: {
        type: types, id, lid, relationship: { type: 'string', description: 'Targets this relationship of the record.' },
        meta: {
          type: 'object',
          properties: { version: { type: ['string', 'integer'], description: 'The version of the record the operation is conditional on, as `If-Match` (a 412 when it changed).' } },
        },
      },
      additionalProperties: false,
    },
    'atomic.resource-object': {
      type: 'object',
      required: ['type'],
      properties: {
        type: types, id, lid: { type: 'string', minLength: 1, description: '`add`: the local id later operations name the new record by.' },
        attributes: { type: 'object' },
        relationships: { type: 'object', additionalProperties: { type: 'object', required: ['data'], properties: { data: linkage(), meta: { type: 'object' } } } },
        meta: { type: 'object' },
      },
      additionalProperties: false,
    },
    'atomic.operation': {
      type: 'object',
      required: ['op'],
      properties: {
        op: { enum: ['add', 'update', 'remove'] },
        ref: schemaRef('atomic.ref'),
        data: { anyOf: [schemaRef('atomic.resource-object'), linkage()], description: 'A resource object, or for a relationship its linkage.' },
        meta: { type: 'object' },
      },
      additionalProperties: false,
    },
    'atomic.operations-document': {
      type: 'object',
      required: ['atomic:operations'],
      properties: { 'atomic:operations': { type: 'array', minItems: 1, items: schemaRef('atomic.operation') }, meta: { type: 'object' }, jsonapi: schemaRef('jsonapi.jsonapi-object') },
      additionalProperties: false,
    },
    'atomic.result': {
      type: 'object',
      description: 'An `add` or `update` of a record: the record as `show` renders it. Any other operation: `{}`.',
      properties: { data: written.length > 0 ? { anyOf: written.map((resource) => recordRef(input, resource)) } : { not: {} }, meta: { type: 'object' } },
      additionalProperties: false,
    },
    'atomic.results-document': {
      type: 'object',
      required: ['atomic:results', 'jsonapi'],
      properties: { 'atomic:results': { type: 'array', minItems: 1, items: schemaRef('atomic.result') }, meta: { type: 'object' }, jsonapi: schemaRef('jsonapi.jsonapi-object') },
      additionalProperties: false,
    },
  };
}

function linkage(): JsonSchema {
  const identifier = schemaRef('atomic.identifier');
  return { anyOf: [identifier, { type: 'array', items: identifier }, { type: 'null' }] };
}

function served(input: OpenApiInput): ResourceClass[] {
  return [...new Set(Object.values(input.schema.endpoints).flatMap(({ actions }) => Object.values(actions).map(({ resource }) => input.named(resource).resource)))];
}

function serves(resource: ResourceClass, action: Action): boolean {
  return resource.endpoints.some((endpoint) => endpoint.actions.includes(action));
}
