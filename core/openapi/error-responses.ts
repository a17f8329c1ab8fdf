import type { Action } from '../resource/action.ts';
import { servedResources } from '../resource/polymorphism.ts';
import { guardedActions } from '../resource/resource-guard.ts';
import { ruleRefusableActions } from '../rules/rule-bound.ts';
import type { ResourceClass } from './openapi-input.ts';
import type { Reference, ResponseObject } from './openapi-types.ts';
import { responseRef, schemaRef } from './references.ts';

/** The JSON:API media type every response carries; request bodies may also say `application/json`. */
export const JSONAPI = 'application/vnd.api+json';

interface ErrorStatus {
  readonly status: string;
  readonly name: string;
  readonly description: string;
  /** Which actions can answer it; `guarded` ones only when a Resource guard covers the action. */
  readonly actions: readonly Action[] | 'guarded';
  /** Actions that answer it whether or not a guard covers them. */
  readonly alsoFor?: readonly Action[];
}

const ALL: readonly Action[] = ['index', 'show', 'create', 'update', 'destroy'];
const WITH_BODY: readonly Action[] = ['create', 'update', 'destroy'];
/** The actions whose body Mural reads, and so whose Content-Type it negotiates (a DELETE's body is ignored). */
const READS_BODY: readonly Action[] = ['create', 'update'];

/**
 * Every error status a Resource endpoint answers, with what causes it. One
 * table, so a new refusal (406 and 415 for content negotiation) is one line.
 */
const ERROR_STATUSES: readonly ErrorStatus[] = [
  {
    status: '400', name: 'BadRequest', actions: ALL,
    description: 'A query parameter or body member is unknown, malformed, or outside its limits; `source.parameter` or `source.pointer` names it.',
  },
  {
    status: '403', name: 'Forbidden', actions: 'guarded', alsoFor: ['create'],
    description: 'The Resource\'s guard refuses the action for this request (`forbidden`); a row rule refuses the record written, linked or destroyed (`forbidden_by_rule`); or a create names its own id where the Resource takes no client-generated ids (`client_id_unsupported`).',
  },
  {
    status: '406', name: 'NotAcceptable', actions: ALL,
    description: 'No JSON:API media type in `Accept` can be served: each carries a parameter other than `ext` and `profile`, or an extension this endpoint does not apply (`source.header`: `Accept`).',
  },
  { status: '404', name: 'NotFound', actions: ['show', 'update', 'destroy', 'create'], description: 'No such record (or no record a sideposted relationship names).' },
  {
    status: '409', name: 'Conflict', actions: WITH_BODY,
    description: 'The body\'s `type` or `id` does not match the endpoint, or a client-generated id is taken (`id_taken`); or the database refuses to delete (or re-key) a record other records refer to (`meta.reason`: `referenced`). Nothing was written.',
  },
  {
    status: '412', name: 'PreconditionFailed', actions: ['index', 'show', 'update', 'destroy'],
    description: 'A condition failed: the record is no longer at a version `If-Match` names (or a sideposted record\'s or an atomic operation\'s `meta.version`), so it changed since it was read; a write\'s `If-None-Match` is `*` or names its version; a GET\'s `If-Match` does not list the answer\'s ETag (`source.header`, or `source.pointer`). Nothing was written.',
  },
  { status: '413', name: 'PayloadTooLarge', actions: WITH_BODY, description: 'The body is over the router\'s `bodyLimit`.' },
  { status: '414', name: 'UriTooLong', actions: ALL, description: 'The URL is over the router\'s `maxUrlLength`.' },
  {
    status: '415', name: 'UnsupportedMediaType', actions: READS_BODY,
    description: 'The body\'s `Content-Type` is not `application/vnd.api+json` (or `application/json`), or has a parameter other than `ext` and `profile`, or an extension this endpoint does not apply (`source.header`: `Content-Type`). Nothing was read.',
  },
  {
    status: '422', name: 'UnprocessableEntity', actions: WITH_BODY,
    description: 'A record is invalid (one error per problem, each with its pointer), or the request wrote an attribute or relationship it may not (`meta.code`: `unwritable_attribute`, `unwritable_relationship`). Nothing was written.',
  },
  { status: '500', name: 'InternalServerError', actions: ALL, description: 'Something unexpected; the body says no more outside development mode.' },
  {
    status: '503', name: 'ServiceUnavailable', actions: ALL,
    description: 'The database timed out or could not be reached; retry after `Retry-After` seconds.',
  },
];

/** `components.responses`: one error response per status, each an error document. */
export function errorResponseComponents(): Record<string, ResponseObject> {
  const responses: Record<string, ResponseObject> = {};
  for (const { name, description, status } of ERROR_STATUSES) {
    responses[name] = {
      description,
      ...(status === '503' ? { headers: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } } } } : {}),
      content: { [JSONAPI]: { schema: schemaRef('jsonapi.error-document') } },
    };
  }
  return responses;
}

/**
 * Error responses by status, inline, each an error document in every one of
 * `mediaTypes`: for an endpoint whose own errors come in its extension's
 * media type, while the router's (a malformed body, say) come in the plain one.
 */
export function errorResponsesIn(statuses: readonly string[], mediaTypes: readonly string[]): Record<string, ResponseObject> {
  const components = errorResponseComponents();
  const responses: Record<string, ResponseObject> = {};
  for (const { status, name } of ERROR_STATUSES.filter((entry) => statuses.includes(entry.status))) {
    const content = Object.fromEntries(mediaTypes.map((mediaType) => [mediaType, { schema: schemaRef('jsonapi.error-document') }]));
    responses[status] = { ...components[name]!, content };
  }
  return responses;
}

/**
 * The error responses of one action of a Resource's endpoint, by status; a
 * relationship endpoint answers those of the action it is part of (reads
 * `show`, writes `update`), and `always` adds what it answers regardless.
 */
export function errorResponses(resource: ResourceClass, action: Action, always: readonly string[] = []): Record<string, Reference> {
  const guarded = servedResources(resource).some((r) => guardedActions(r).includes(action) || ruleRefusableActions(r).includes(action));
  const responses: Record<string, Reference> = {};
  for (const { status, name, actions, alsoFor } of ERROR_STATUSES) {
    const applies = always.includes(status) || alsoFor?.includes(action) ||
      (actions === 'guarded' ? guarded : actions.includes(action) || (status === '404' && resource.validateEndpoints));
    if (applies) responses[status] = responseRef(name);
  }
  return responses;
}
