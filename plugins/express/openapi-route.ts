import type { Request, Response, Router } from 'express';
import { buildOpenApi, prepareOpenApi, withContext, type MuralContext, type OpenApiDocument, type OpenApiInfo, type OpenApiViewName, type Resource } from '../../core/index.ts';
import { applyCachePolicy, cachePolicy, entityTag, notModified, type CachePolicy } from './conditional.ts';
import { sendError } from './error-response.ts';

/** `muralRouter({ openapi: { … } })`: where the OpenAPI document is served, and its `info`. */
export interface MuralOpenApiOptions {
  /**
   * The path it is served at, relative to where the router is mounted.
   * Default: `{namespace}/openapi.json` for each namespace of the Resources
   * (`/openapi.json` for Resources without one).
   */
  path?: string;
  /** The document's `info` (title, version, description). Default `{ title: 'JSON:API', version: '1.0.0' }`. */
  info?: OpenApiInfo;
  /**
   * Whose description it serves. `'caller'` (the default): the API as the
   * request's context may use it, what its guards refuse left out, so the
   * document tells a client no more than the API would. `'full'`: every
   * endpoint and guarded part, marked `x-mural-guard`, to everyone, as
   * `mural openapi` writes it.
   */
  view?: OpenApiViewName;
}

/** What a router describes itself with: its OpenAPI document, and the namespaces it answers every path under. */
export interface RouterDescription {
  document(): OpenApiDocument;
  namespaces: readonly string[];
}

/** What of the router's options serving the document needs. */
export interface DescribedRouterSettings {
  operations: boolean;
  context?: (req: Request) => MuralContext | Promise<MuralContext>;
  /** The request headers the context reads, as the router's `vary` option. */
  vary?: readonly string[];
  development?: boolean;
}

interface ServedDocument {
  bytes: Buffer;
  etag: string;
}

const descriptions = new WeakMap<object, RouterDescription>();
/**
 * Documents kept per router: one per mount point and view. A mount path with
 * parameters, or guards with many outcomes, would otherwise grow it per
 * request; past the bound the least recently served is dropped.
 */
const MAX_CACHED_DOCUMENTS = 32;

/**
 * Records the router's description and, when `openapi` asks for it, serves
 * the document as JSON. It is built on first request, once every Resource a
 * relationship names has been declared, and once per mount point (a router
 * mounted under `/v2` lists `/v2` as its server) and view: in the caller's
 * view, the guards are decided under the request's context, and requests
 * whose guards decide alike share one document (`prepareOpenApi`'s key).
 */
export function describeRouter(
  router: Router,
  resources: ReadonlyArray<typeof Resource>,
  namespaces: readonly string[],
  option: boolean | MuralOpenApiOptions | undefined,
  served: DescribedRouterSettings = { operations: false },
): void {
  const settings = typeof option === 'object' ? option : {};
  const optionsAt = (mount: string) => ({ info: settings.info, operations: served.operations, ...(mount ? { servers: [{ url: mount }] } : {}) });
  descriptions.set(router, { document: () => buildOpenApi(resources, optionsAt('')), namespaces });
  if (!option) return;
  const view = settings.view ?? 'caller';
  // the full document is everyone's; the caller's depends on the context, which only `vary` lets a shared cache see
  const policy = view === 'full' ? cachePolicy(undefined, false, undefined) : cachePolicy(undefined, served.context !== undefined, served.vary);
  const cache = new Map<string, ServedDocument>();
  const documentFor = (mount: string): ServedDocument => {
    const prepared = prepareOpenApi(resources, { ...optionsAt(mount), view });
    const key = `${mount}\u0000${prepared.key}`;
    let found = cache.get(key);
    if (found) cache.delete(key);
    else {
      const bytes = Buffer.from(JSON.stringify(prepared.document(), null, 2));
      found = { bytes, etag: entityTag(bytes) };
    }
    cache.set(key, found); // most recently served last
    if (cache.size > MAX_CACHED_DOCUMENTS) cache.delete(cache.keys().next().value!);
    return found;
  };
  const paths = settings.path ? [settings.path] : namespaces.length > 0 ? namespaces.map((ns) => `${ns}/openapi.json`) : ['/openapi.json'];
  const serve = async (req: Request, res: Response) => {
    try {
      const context = view === 'caller' ? ((await served.context?.(req)) ?? {}) : {};
      sendDescription(req, res, withContext(context, () => documentFor(req.baseUrl)), policy);
    } catch (error) {
      sendError(res, error, served.development ?? false);
    }
  };
  for (const path of paths) router.get(path, serve);
}

function sendDescription(req: Request, res: Response, document: ServedDocument, policy: CachePolicy): void {
  res.setHeader('ETag', document.etag);
  applyCachePolicy(res, policy);
  if (notModified(req, document.etag)) {
    res.status(304).end();
    return;
  }
  res.status(200).setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', String(document.bytes.length));
  res.end(document.bytes);
}

/** The description of a router `muralRouter` made; undefined for any other handler. */
export function routerDescription(handler: unknown): RouterDescription | undefined {
  return typeof handler === 'function' ? descriptions.get(handler) : undefined;
}
