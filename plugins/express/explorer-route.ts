import type { Request, RequestHandler, Response, Router } from 'express';
import { renderMermaid, renderSvg, resourceGraph, RouteNotFound, visibleSchema, withContext, type MuralContext, type Resource, type Schema } from '../../core/index.ts';
import { sendError } from './error-response.ts';
import { explorerAssets, type ExplorerAsset } from './explorer-assets.ts';

/** What the explorer's routes need of the router's options. */
export interface ExplorerSettings {
  resources: ReadonlyArray<typeof Resource>;
  context?: (req: Request) => MuralContext | Promise<MuralContext>;
  development: boolean;
  /** Runs before each route (the router's URL length check). */
  before: RequestHandler[];
}

/** What `{namespace}/explorer/schema.json` answers: where the API is mounted, and the schema as this request may use it. */
export interface ExplorerDocument {
  /** The path the router is mounted at (`''` at the root); the schema's endpoint paths follow it. */
  mount: string;
  namespace: string;
  schema: Schema;
}

/**
 * The page allows its own files and nothing else: no inline script or style,
 * no other origin, no framing, no form posting elsewhere.
 */
export const EXPLORER_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * `GET {namespace}/explorer`: the API explorer, a page of plain ES modules
 * shipped in the package, and what it reads: `explorer/schema.json` (the
 * namespace's schema with what the request's guards refuse left out),
 * `explorer/diagram.svg` and `explorer/diagram.mmd` (its relationship
 * diagram). The page queries the API itself, as the browser's user.
 */
export function serveExplorer(router: Router, namespace: string, settings: ExplorerSettings): void {
  const resources = settings.resources.filter((r) => !r.abstractClass && (r.endpointNamespace ?? '') === namespace);
  const base = `${namespace}/explorer`;
  const viewed = (send: (res: Response, schema: Schema, req: Request) => void) => async (req: Request, res: Response) => {
    try {
      const ctx = (await settings.context?.(req)) ?? {};
      const schema = withContext(ctx, () => visibleSchema(resources));
      secure(res).setHeader('Cache-Control', 'private, no-store');
      send(res, schema, req);
    } catch (error) {
      sendError(res, error, settings.development);
    }
  };
  router.get(base, ...settings.before, (req, res) => {
    // the page names its files relative to itself, which a trailing slash would move
    if (req.path.endsWith('/')) return res.redirect(301, `${req.baseUrl}${base}`);
    sendAsset(req, res, explorerAssets().get('index.html')!);
  });
  router.get(`${base}/schema.json`, ...settings.before, viewed((res, schema, req) => {
    const document: ExplorerDocument = { mount: req.baseUrl, namespace, schema };
    res.status(200).type('application/json').send(JSON.stringify(document));
  }));
  router.get(`${base}/diagram.svg`, ...settings.before, viewed((res, schema) => void res.status(200).type('image/svg+xml').send(renderSvg(resourceGraph(schema)))));
  router.get(`${base}/diagram.mmd`, ...settings.before, viewed((res, schema) => void res.status(200).type('text/plain').send(renderMermaid(resourceGraph(schema)))));
  router.get(`${base}/:file`, ...settings.before, (req, res) => {
    const name = String(req.params.file);
    const asset = name === 'index.html' ? undefined : explorerAssets().get(name);
    if (!asset) return sendError(res, new RouteNotFound(req.method, req.originalUrl.split('?')[0]!), settings.development);
    sendAsset(req, res, asset);
  });
}

/** A file of the page: revalidated on every use (an upgrade of Mural changes it), a 304 when unchanged. */
function sendAsset(req: Request, res: Response, asset: ExplorerAsset): void {
  secure(res).setHeader('ETag', asset.etag);
  res.setHeader('Cache-Control', 'no-cache');
  const tags = req.header('If-None-Match')?.split(',').map((tag) => tag.trim().replace(/^W\//, '')) ?? [];
  if (tags.includes(asset.etag) || tags.includes('*')) {
    res.status(304).end();
    return;
  }
  res.status(200).type(asset.type).send(asset.body);
}

function secure(res: Response): Response {
  res.setHeader('Content-Security-Policy', EXPLORER_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  return res;
}
