import { createHash } from 'node:crypto';
import { documentSchemas, SHARED_SCHEMAS } from './document-schemas.ts';
import { errorResponseComponents } from './error-responses.ts';
import { openApiInput, type OpenApiInput, type ResourceClass } from './openapi-input.ts';
import type { JsonSchema, OpenApiDocument, OpenApiInfo, PathItemObject } from './openapi-types.ts';
import { openApiView, type OpenApiViewName } from './openapi-view.ts';
import { parameterComponents } from './query-parameters.ts';
import { conditionalParameters, conditionalResponses, describeConditionalRequests } from './conditional-requests.ts';
import { operationPaths, operationSchemas } from './operation-paths.ts';
import { relationshipSchemas } from './relationship-endpoints.ts';
import { relationshipPaths } from './relationship-paths.ts';
import { resourcePaths } from './resource-paths.ts';
import { resourceObjectSchemas } from './resource-schemas.ts';
import { writeSchemas } from './write-schemas.ts';

/** Options of `buildOpenApi`, the OpenAPI 3.1 document of a set of Resources. */
export interface OpenApiOptions {
  /** The document's `info`. Default: `{ title: 'JSON:API', version: '1.0.0' }`. */
  info?: OpenApiInfo;
  /** Where the paths are served from, when not the host's root (a router mounted under a prefix). */
  servers?: Array<{ url: string; description?: string }>;
  /** Describe `POST {ns}/operations`, the atomic operations endpoint (`muralRouter({ operations: true })`). */
  operations?: boolean;
  /**
   * `'full'` (the default): every endpoint and guarded part, marked. `'caller'`:
   * the API as the current context (`withContext`) may use it, what its guards
   * refuse now left out, so a document served to a client tells it no more
   * than the API would.
   */
  view?: OpenApiViewName;
}

/** One family of endpoints, from the same input as every other family: its paths, and the schemas only they use. */
export interface PathFamily {
  paths(input: OpenApiInput): Record<string, PathItemObject>;
  schemas?(input: OpenApiInput): Record<string, JsonSchema>;
}

/** The families of endpoints Mural serves, each described by its own module. */
const PATH_FAMILIES: readonly PathFamily[] = [
  { paths: resourcePaths },
  { paths: relationshipPaths, schemas: relationshipSchemas },
];

/** Served only when the router is asked to. */
const OPERATIONS: PathFamily = { paths: operationPaths, schemas: operationSchemas };

export const DEFAULT_INFO: OpenApiInfo = { title: 'JSON:API', version: '1.0.0' };

/**
 * An OpenAPI 3.1 document of every endpoint of the given Resources: their
 * paths and actions, query parameters, request and response bodies and
 * error responses, all derived from the schema `mural schema export` writes.
 * Keys are sorted, so the same Resources always give byte-identical JSON.
 */
export function buildOpenApi(resources: readonly ResourceClass[], options: OpenApiOptions = {}): OpenApiDocument {
  return prepareOpenApi(resources, options).document();
}

/** A document decided but not yet built: what a server caches documents by. */
export interface PreparedOpenApi {
  /**
   * Equal for two preparations (of the same Resources and options) exactly
   * when their documents are equal: it holds everything the view decided
   * (endpoints and actions, the Resources described, each one's schema entry
   * and relationships). Building the document costs far more than the key.
   */
  readonly key: string;
  document(): OpenApiDocument;
}

/**
 * `buildOpenApi` in two steps: the view is decided now (for `view:
 * 'caller'`, in the current context), the document built when asked.
 */
export function prepareOpenApi(resources: readonly ResourceClass[], options: OpenApiOptions = {}): PreparedOpenApi {
  const input = openApiInput(openApiView(resources, options.view));
  let key: string | undefined;
  return {
    get key() {
      return (key ??= createHash('sha256').update(JSON.stringify(viewData(input))).digest('base64url'));
    },
    document: () => documentOf(input, options),
  };
}

function viewData(input: OpenApiInput): unknown {
  const names = (list: readonly { name: string }[]) => list.map((r) => r.name);
  return {
    endpoints: input.schema.endpoints,
    resources: input.resources.map(({ resource, schema, component, view }) => [
      component, schema, names(view.relationships(resource, 'read')), names(view.relationships(resource, 'write')),
    ]),
  };
}

function documentOf(input: OpenApiInput, options: OpenApiOptions): OpenApiDocument {
  const families = options.operations ? [...PATH_FAMILIES, OPERATIONS] : PATH_FAMILIES;
  const paths: Record<string, PathItemObject> = {};
  for (const family of families) {
    for (const [path, item] of Object.entries(family.paths(input))) paths[path] = { ...paths[path], ...item };
  }
  describeConditionalRequests(paths);
  const tags = [...new Set(Object.values(paths).flatMap((item) => (['get', 'post', 'patch', 'delete'] as const).flatMap((m) => item[m]?.tags ?? [])))];
  const descriptions = new Map(input.resources.map((r) => [r.resource.type, r.schema.description]));
  return {
    openapi: '3.1.0',
    info: options.info ?? DEFAULT_INFO,
    ...(options.servers ? { servers: options.servers } : {}),
    tags: tags.sort().map((name) => ({ name, ...(descriptions.get(name) ? { description: descriptions.get(name)! } : {}) })),
    paths: sortKeys(paths),
    components: {
      schemas: sortKeys(Object.assign(
        { ...SHARED_SCHEMAS, ...resourceObjectSchemas(input), ...documentSchemas(input), ...writeSchemas(input) },
        ...families.map((family) => family.schemas?.(input) ?? {}),
      )),
      parameters: sortKeys({ ...parameterComponents(input), ...conditionalParameters() }),
      responses: sortKeys({ ...errorResponseComponents(), ...conditionalResponses() }),
    },
  };
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
