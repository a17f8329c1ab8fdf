import { Ajv } from 'ajv';
import type { Express } from 'express';
import { jsonApiSchema } from './jsonapi-schema.ts';
import { OpenApiResponses } from './openapi-responses.ts';
import { routerDescription } from '../../plugins/express/openapi-route.ts';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';

export interface HttpResponse {
  status: number;
  contentType: string | null;
  body: unknown;
  text: string;
  headers: Headers;
}

export interface HttpClient {
  /** `http://127.0.0.1:<port>`. */
  baseUrl: string;
  get(path: string, headers?: Record<string, string>): Promise<HttpResponse>;
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<HttpResponse>;
  close(): Promise<void>;
}

const validateDocument = new Ajv({ allErrors: true, strict: false }).compile(jsonApiSchema);

/** Every JSON:API response of the HTTP suites must be a valid JSON:API document. */
function assertJsonApi(method: string, path: string, contentType: string | null, parsed: unknown): void {
  if (!contentType?.startsWith('application/vnd.api+json')) return;
  if (!validateDocument(parsed)) {
    throw new Error(`${method} ${path} answered an invalid JSON:API document: ${JSON.stringify(validateDocument.errors?.slice(0, 3))}`);
  }
}

interface MountedDescription {
  prefix: string;
  responses: OpenApiResponses;
}

/**
 * The OpenAPI documents of the Mural routers mounted on `app`, each checked
 * once per app: Express keeps its middleware in `app.router.stack` (Express 5;
 * `_router` in 4), each layer with its handler and mount path.
 */
function mountedDescriptions(app: Express): MountedDescription[] {
  type Layer = { handle: unknown; slash?: boolean; rawPath?: unknown };
  const holder = app as unknown as { router?: { stack?: Layer[] }; _router?: { stack?: Layer[] } };
  const stack = (holder.router ?? holder._router)?.stack ?? [];
  return stack.flatMap((layer) => {
    const description = routerDescription(layer.handle);
    if (!description) return [];
    const prefix = layer.slash === false && typeof layer.rawPath === 'string' ? layer.rawPath : '';
    return [{ prefix, responses: new OpenApiResponses(description.document(), description.namespaces) }];
  });
}

/** Every JSON:API response of a Mural router must be one its OpenAPI document describes, body included. */
function assertDescribed(descriptions: readonly MountedDescription[], method: string, path: string, status: number, contentType: string | null, parsed: unknown): void {
  // the served OpenAPI document is not among the paths it describes
  if (/\/openapi\.json(\?|$)/.test(path)) return;
  if (status === 304) {
    for (const { prefix, responses } of descriptions) {
      const problem = path.startsWith(prefix) ? responses.bodilessProblem(method, path.slice(prefix.length) || '/', status) : undefined;
      if (problem) throw new Error(`OpenAPI: ${problem}`);
    }
    return;
  }
  if (!contentType?.startsWith('application/vnd.api+json')) return;
  for (const { prefix, responses } of descriptions) {
    if (!path.startsWith(prefix)) continue;
    const problem = responses.problem(method, path.slice(prefix.length) || '/', status, parsed, contentType.replace(/;\s*charset=[^;]*/i, ''));
    if (problem) throw new Error(`OpenAPI: ${problem}`);
  }
}

/** Serves `app` on a free loopback port and talks to it with fetch, as a client would. */
export async function serve(app: Express): Promise<HttpClient> {
  const descriptions = mountedDescriptions(app);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  // fetch reuses idle sockets for about 4 s; a server closing them after its default 5 s races that on a
  // loaded machine (the request fails as "fetch failed"), so test servers keep them open longer than fetch does
  server.keepAliveTimeout = 60_000;
  const { port } = server.address() as AddressInfo;
  const request = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const init: RequestInit = { method, headers: { accept: 'application/vnd.api+json', ...headers } };
    if (body !== undefined) {
      // bytes go as they are: how a test sends what no JSON.stringify writes (invalid UTF-8)
      init.body = typeof body === 'string' ? body : body instanceof Uint8Array ? new Blob([new Uint8Array(body)]) : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/vnd.api+json';
    }
    const response = await fetch(`http://127.0.0.1:${port}${path}`, init);
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    const contentType = response.headers.get('content-type');
    assertJsonApi(method, path, contentType, parsed);
    assertDescribed(descriptions, method, path, response.status, contentType, parsed);
    return { status: response.status, contentType, body: parsed, text, headers: response.headers };
  };
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    get: (path, headers) => request('GET', path, undefined, headers),
    request,
    close: () => new Promise((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
