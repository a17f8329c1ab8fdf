import type { Action } from '../resource/action.ts';
import { guardedActions } from '../resource/resource-guard.ts';
import { describeRule } from '../rules/describe-rule.ts';
import type { RuleAction } from '../resource/row-rule.ts';
import { servedResources } from '../resource/polymorphism.ts';
import { errorResponses, JSONAPI } from './error-responses.ts';
import type { OpenApiInput, ResourceClass } from './openapi-input.ts';
import type { HeaderObject, HttpMethod, OperationObject, ParameterObject, PathItemObject } from './openapi-types.ts';
import { queryParameters } from './query-parameters.ts';
import { schemaRef } from './references.ts';

interface Route {
  method: HttpMethod;
  member: boolean;
  status: '200' | '201';
  summary: (type: string) => string;
  /** The document it answers, by component suffix. */
  document: (component: string) => string;
  body?: 'create' | 'update';
}

/** The five actions, as the Express router serves them. */
const ROUTES: Readonly<Record<Action, Route>> = {
  index: { method: 'get', member: false, status: '200', summary: (t) => `List ${t}`, document: (c) => `${c}.collection-document` },
  show: { method: 'get', member: true, status: '200', summary: (t) => `Fetch one of ${t}`, document: (c) => `${c}.document` },
  create: { method: 'post', member: false, status: '201', summary: (t) => `Create one of ${t}`, document: (c) => `${c}.document`, body: 'create' },
  update: { method: 'patch', member: true, status: '200', summary: (t) => `Update one of ${t}`, document: (c) => `${c}.document`, body: 'update' },
  destroy: { method: 'delete', member: true, status: '200', summary: (t) => `Delete one of ${t}`, document: () => 'jsonapi.meta-document' },
};

const LOCATION: HeaderObject = { description: 'The created record\'s URL: the endpoint\'s path and its id.', schema: { type: 'string' } };
const ID: ParameterObject = { name: 'id', in: 'path', required: true, description: 'The record\'s id.', schema: { type: 'string' } };

/**
 * `GET|POST {ns}/{type}` and `GET|PATCH|DELETE {ns}/{type}/{id}` for each
 * endpoint of each served Resource, limited to the actions it allows, as
 * schema.json lists them.
 */
export function resourcePaths(input: OpenApiInput): Record<string, PathItemObject> {
  const paths: Record<string, PathItemObject> = {};
  const operationIds = new Set<string>();
  for (const [path, { actions }] of Object.entries(input.schema.endpoints)) {
    for (const [action, { resource: name }] of Object.entries(actions) as Array<[Action, { resource: string }]>) {
      const route = ROUTES[action];
      const template = openApiPath(route.member ? `${path}/:id` : path);
      const item = (paths[template.path] ??= template.parameters.length > 0 ? { parameters: template.parameters } : {});
      const resource = input.named(name).resource;
      item[route.method] = operation(input, resource, action, uniqueId(operationIds, `${input.describe(resource).component}.${action}`));
    }
  }
  return paths;
}

function operation(input: OpenApiInput, resource: ResourceClass, action: Action, operationId: string): OperationObject {
  const route = ROUTES[action];
  const { component } = input.describe(resource);
  const guarded = servedResources(resource).some((r) => guardedActions(r).includes(action));
  const parameters = queryParameters(input, resource, action);
  const body = route.body;
  return {
    operationId,
    summary: route.summary(resource.type),
    ...operationDescription(resource, action, guarded),
    tags: [resource.type],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body
      ? {
          requestBody: {
            required: true,
            content: Object.fromEntries([JSONAPI, 'application/json'].map((type) => [type, { schema: schemaRef(`${component}.${body}-document`) }])),
          },
        }
      : {}),
    responses: {
      [route.status]: {
        description: route.summary(resource.type),
        ...(route.status === '201' ? { headers: { Location: LOCATION } } : {}),
        content: { [JSONAPI]: { schema: schemaRef(route.document(component)) } },
      },
      ...errorResponses(resource, action),
    },
    ...(guarded ? { 'x-mural-guard': true as const } : {}),
  };
}

/** An Express path (`/teams/:team_id/members/:id`) as an OpenAPI template, with its path parameters. */
export function openApiPath(expressPath: string): { path: string; parameters: ParameterObject[] } {
  const parameters: ParameterObject[] = [];
  const path = expressPath.replace(/:(\w+)/g, (_, name: string) => {
    parameters.push(name === 'id' ? ID : { name, in: 'path', required: true, schema: { type: 'string' } });
    return `{${name}}`;
  });
  return { path, parameters };
}

function uniqueId(used: Set<string>, base: string): string {
  let id = base;
  for (let n = 2; used.has(id); n++) id = `${base}.${n}`;
  used.add(id);
  return id;
}

/** What decides per request: the Resource's guard, and the row rules that bound the records of the action. */
function operationDescription(resource: ResourceClass, action: Action, guarded: boolean): { description?: string } {
  const lines = guarded ? ['Guarded: the Resource\'s guard decides per request whether this action is allowed (403 otherwise).'] : [];
  const rules = ruleLines(resource, action);
  if (rules.length > 0) lines.push(`Row rules (the records this caller may see and change): ${rules.join('; ')}.`);
  return lines.length > 0 ? { description: lines.join(' ') } : {};
}

/** `read: company_id = context.user.companyId`, for the rule actions that bound `action`. */
function ruleLines(resource: ResourceClass, action: Action): string[] {
  const bound: Record<Action, readonly RuleAction[]> = { index: ['read'], show: ['read'], create: ['read', 'create'], update: ['read', 'update'], destroy: ['read', 'destroy'] };
  return resource.config.rules.filter((definition) => bound[action].includes(definition.action)).map((definition) => `${definition.action}: ${describeRule(definition.rule)}`);
}
