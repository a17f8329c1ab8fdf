import type { Action } from '../resource/action.ts';
import { errorResponses, JSONAPI } from './error-responses.ts';
import type { OpenApiInput } from './openapi-input.ts';
import type { HttpMethod, OperationObject, PathItemObject, ResponseObject } from './openapi-types.ts';
import { relatedParameters } from './query-parameters.ts';
import { schemaRef } from './references.ts';
import { relatedDocument, relationshipEndpoints, type RelationshipEndpoint } from './relationship-endpoints.ts';
import { openApiPath } from './resource-paths.ts';
import { joined } from './sentences.ts';

type Write = 'replace' | 'add' | 'remove';

const WRITES: ReadonlyArray<{ method: 'patch' | 'post' | 'delete'; write: Write; summary: (name: string, toMany: boolean) => string }> = [
  { method: 'patch', write: 'replace', summary: (name, toMany) => (toMany ? `Replace every member of ${name}` : `Set ${name}, or clear it with null`) },
  { method: 'post', write: 'add', summary: (name) => `Add members to ${name}` },
  { method: 'delete', write: 'remove', summary: (name) => `Remove members from ${name}` },
];

/**
 * `GET {ns}/{type}/{id}/{relationship}` (the related records, as `include`
 * gives them), `GET …/relationships/{relationship}` (the linkage), and
 * `PATCH`/`POST`/`DELETE` on the latter, for every relationship of every
 * endpoint that shows or updates records. Each relationship has paths of its
 * own, so each says what it holds.
 */
export function relationshipPaths(input: OpenApiInput): Record<string, PathItemObject> {
  const paths: Record<string, PathItemObject> = {};
  const add = (expressPath: string, method: HttpMethod, operation: OperationObject) => {
    const template = openApiPath(expressPath);
    (paths[template.path] ??= { parameters: template.parameters })[method] = operation;
  };
  for (const endpoint of relationshipEndpoints(input)) {
    const { path, relationship } = endpoint;
    // a relationship no one may read answers every read with a 404, as if it did not exist
    if (endpoint.reads && relationship.readable !== false) {
      add(`${path}/:id/${relationship.name}`, 'get', relatedRead(input, endpoint));
      add(`${path}/:id/relationships/${relationship.name}`, 'get', linkageRead(input, endpoint));
    }
    if (endpoint.writes) {
      for (const write of WRITES) add(`${path}/:id/relationships/${relationship.name}`, write.method, linkageWrite(endpoint, write));
    }
  }
  return paths;
}

function relatedRead(input: OpenApiInput, endpoint: RelationshipEndpoint): OperationObject {
  const { owner, relationship, toMany } = endpoint;
  // a to-one relationship answers one record; a block that picks the records pages them itself
  const paged = toMany && relationship.assign === undefined && relationship.assignEach === undefined;
  return {
    operationId: `${endpoint.component}.related`,
    summary: `The ${relationship.name} of one of ${owner.type}`,
    description: joined(
      `Exactly what \`include=${relationship.name}\` gives for the record: ${toMany ? 'a page of records' : 'one record, or null'}.`,
      guardNote(endpoint, 'read'),
    ),
    tags: [owner.type],
    parameters: relatedParameters(input, endpoint.targets, { paged, identifiers: false }),
    responses: { '200': jsonapi(`The ${relationship.name}.`, relatedDocument(input, endpoint)), ...errorResponses(owner, 'show') },
    ...guardExtension(endpoint, 'read'),
  };
}

function linkageRead(input: OpenApiInput, endpoint: RelationshipEndpoint): OperationObject {
  const { owner, relationship, toMany } = endpoint;
  return {
    operationId: `${endpoint.component}.linkage`,
    summary: `The linkage of ${relationship.name} of one of ${owner.type}`,
    description: joined('Resource identifiers only: `include`, `fields` and `extra_fields` are a 400.', guardNote(endpoint, 'read')),
    tags: [owner.type],
    parameters: relatedParameters(input, endpoint.targets, { paged: toMany, identifiers: true }),
    responses: { '200': jsonapi('The linkage.', schemaRef(`${endpoint.component}.linkage-document`)), ...errorResponses(owner, 'show') },
    ...guardExtension(endpoint, 'read'),
  };
}

function linkageWrite(endpoint: RelationshipEndpoint, { method, write, summary }: (typeof WRITES)[number]): OperationObject {
  const { owner, relationship, toMany } = endpoint;
  const unsupported = write !== 'replace' && !toMany;
  return {
    operationId: `${endpoint.component}.${write}`,
    summary: unsupported ? `${method.toUpperCase()} on to-one ${relationship.name}: not supported (403)` : summary(relationship.name, toMany),
    description: unsupported
      ? `${relationship.name} is to-one: PATCH sets it, and ${method.toUpperCase()} answers 403 \`unsupported_operation\`.`
      : joined('204 when the relationship now holds what the request said; 200 with its linkage when it holds something else.', guardNote(endpoint, 'write')),
    tags: [owner.type],
    requestBody: {
      required: true,
      content: Object.fromEntries([JSONAPI, 'application/json'].map((type) => [type, { schema: schemaRef(`${endpoint.component}.linkage-body`) }])),
    },
    responses: {
      ...(unsupported
        ? {}
        : {
            '200': jsonapi('The relationship holds something other than asked: its linkage.', schemaRef(`${endpoint.component}.linkage-document`)),
            '204': { description: 'The relationship now holds what the request said.' },
          }),
      ...errorResponses(owner, 'update' satisfies Action, unsupported ? ['403'] : []),
    },
    ...guardExtension(endpoint, 'write'),
  };
}

function jsonapi(description: string, schema: ReturnType<typeof schemaRef>): ResponseObject {
  return { description, content: { [JSONAPI]: { schema } } };
}

function guarded({ relationship }: RelationshipEndpoint, access: 'read' | 'write'): boolean {
  const flag = access === 'read' ? relationship.readable : relationship.writable;
  return flag !== true && flag !== false;
}

function guardNote(endpoint: RelationshipEndpoint, access: 'read' | 'write'): string | null {
  if (access === 'write' && endpoint.relationship.writable === false) return 'Not writable: every write answers 422 `unwritable_relationship`.';
  if (!guarded(endpoint, access)) return null;
  return access === 'read'
    ? 'Guarded: when the relationship\'s readable guard refuses, the answer is the 404 of a relationship that does not exist.'
    : 'Guarded: when the relationship\'s writable guard refuses, the answer is a 422 `unwritable_relationship`, or the 404 of a relationship that does not exist when the caller may not read it either.';
}

function guardExtension(endpoint: RelationshipEndpoint, access: 'read' | 'write'): { 'x-mural-guard'?: true } {
  return guarded(endpoint, access) ? { 'x-mural-guard': true } : {};
}
