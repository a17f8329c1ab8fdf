import type { Request, Response, Router } from 'express';
import { buildOpenApi, type OpenApiDocument, type OpenApiInfo, type Resource } from '../../core/index.ts';

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
}

/** What a router describes itself with: its OpenAPI document, and the namespaces it answers every path under. */
export interface RouterDescription {
  document(): OpenApiDocument;
  namespaces: readonly string[];
}

const descriptions = new WeakMap<object, RouterDescription>();
/** Mount points whose document is kept: a mount path with parameters would otherwise grow the cache per request. */
const MAX_CACHED_MOUNTS = 16;

/**
 * Records the router's description and, when `openapi` asks for it, serves
 * the document as JSON. It is built on first request, once every Resource a
 * relationship names has been declared, and once per mount point (a router
 * mounted under `/v2` lists `/v2` as its server).
 */
export function describeRouter(
  router: Router,
  resources: ReadonlyArray<typeof Resource>,
  namespaces: readonly string[],
  option: boolean | MuralOpenApiOptions | undefined,
  served: { operations: boolean } = { operations: false },
): void {
  const settings = typeof option === 'object' ? option : {};
  const byMount = new Map<string, string>();
  const build = (mount: string) =>
    buildOpenApi(resources, { info: settings.info, operations: served.operations, ...(mount ? { servers: [{ url: mount }] } : {}) });
  descriptions.set(router, { document: () => build(''), namespaces });
  if (!option) return;
  const paths = settings.path ? [settings.path] : namespaces.length > 0 ? namespaces.map((ns) => `${ns}/openapi.json`) : ['/openapi.json'];
  const serve = (req: Request, res: Response) => {
    let text = byMount.get(req.baseUrl);
    if (text === undefined) {
      text = JSON.stringify(build(req.baseUrl), null, 2);
      if (byMount.size < MAX_CACHED_MOUNTS) byMount.set(req.baseUrl, text);
    }
    res.status(200).type('application/json').send(text);
  };
  for (const path of paths) router.get(path, serve);
}

/** The description of a router `muralRouter` made; undefined for any other handler. */
export function routerDescription(handler: unknown): RouterDescription | undefined {
  return typeof handler === 'function' ? descriptions.get(handler) : undefined;
}
