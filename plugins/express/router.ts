import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import { ATOMIC_EXTENSION, BadRequestError, checkResources, prepareResources, RequestTooLarge, ResourceConfigurationError, RouteNotFound, withContext, withDeadline, type Action, type MuralContext, type Resource } from '../../core/index.ts';
import { sendError } from './error-response.ts';
import { negotiatedFor, negotiation } from './negotiation.ts';
import { describeRouter, type MuralOpenApiOptions } from './openapi-route.ts';
import { index, show, type ActionHandler, type ActionResult } from './read-handlers.ts';
import { applyCachePolicy, cachePolicy, checkIfMatch, entityTag, notModified, type CachePolicy } from './conditional.ts';
import { create, destroy, update } from './write-handlers.ts';
import { relationshipRoutes, type RelationshipRoute } from './relationship-handlers.ts';
import { documentText, sendDocument, sendText } from './send-document.ts';
import { operationsHandler } from './operations-handler.ts';
import { serveExplorer } from './explorer-route.ts';
import { withServerTiming, type ServerTimingOption } from './server-timing.ts';
import { RouteTable } from './route-table.ts';

/** Options of `muralRouter`: the Resources to serve, and how. */
export interface MuralRouterOptions {
  resources: ReadonlyArray<typeof Resource>;
  /** Builds the request context guards and scopes read (the current user, a role…). */
  context?: (req: Request) => MuralContext | Promise<MuralContext>;
  /** Show exception messages and stacks in 500 responses. Default: NODE_ENV is `development`. */
  development?: boolean;
  /** Largest accepted request body: bytes, or Express's size syntax (`'1mb'`). Default `1mb`. */
  bodyLimit?: number | string;
  /** Longest accepted URL (path and query string), in characters: longer is a 414. Default 8192. */
  maxUrlLength?: number;
  /**
   * Serve the Resources' OpenAPI 3.1 document (`mural openapi`'s): `true` at
   * `{namespace}/openapi.json`, or `{ path, info }`. Default: not served.
   */
  openapi?: boolean | MuralOpenApiOptions;
  /**
   * The request headers `context` reads (`['X-Role', 'Authorization']`),
   * listed in `Vary` on GET responses so a cache keys its entries by them.
   * Default: with a `context` function, none, and GET responses are
   * `Cache-Control: private` (no shared cache stores them); without one, none.
   */
  vary?: readonly string[];
  /**
   * Serve JSON:API's Atomic Operations extension at `POST {namespace}/operations`:
   * several writes of the namespace's Resources in one transaction. Default: not served.
   */
  operations?: boolean;
  /**
   * Serve the API explorer at `{namespace}/explorer`: a page listing the
   * namespace's Resources, building queries and showing their answers, with
   * a relationship diagram. It queries the API as the browser's user.
   * Default: on unless NODE_ENV is `production`.
   */
  explorer?: boolean;
  /**
   * Answer with a `Server-Timing` header listing each database operation
   * and the whole handling, which browsers' developer tools show: `true`,
   * or a function deciding per request (`(req) => req.header('X-Role') ===
   * 'admin'`). Timings tell a client how the server spends its time.
   * Default: `development`.
   */
  serverTiming?: ServerTimingOption;
  /**
   * Check the Resources against their models and each other before serving
   * them (`checkResources`): building the router throws one error listing
   * every problem. `false` skips the check, for Resources whose models only
   * take shape after the router is built. Default: true.
   */
  checkResources?: boolean;
}

interface Route {
  method: 'get' | 'post' | 'patch' | 'delete';
  member: boolean;
  handler: ActionHandler;
  /** Whether it reads a request body (and so negotiates its Content-Type). */
  body: boolean;
}

/** Handlers by action; an action a Resource does not allow is simply not routed. */
const ROUTES: Partial<Record<Action, Route>> = {
  index: { method: 'get', member: false, handler: index, body: false },
  show: { method: 'get', member: true, handler: show, body: false },
  create: { method: 'post', member: false, handler: create, body: true },
  update: { method: 'patch', member: true, handler: update, body: true },
  // a body sent with a DELETE is ignored, whatever its type
  destroy: { method: 'delete', member: true, handler: destroy, body: false },
};

/** An Express router serving every endpoint of the given Resources. */
export function muralRouter(options: MuralRouterOptions): Router {
  prepareResources();
  if (options.checkResources !== false) checkResources(options.resources);
  const router = express.Router();
  // write bodies are read as bytes and decoded here, so bad UTF-8 or JSON is a JSON:API 400
  const readBody = express.raw({ type: () => true, limit: options.bodyLimit ?? '1mb' });
  const development = options.development ?? process.env.NODE_ENV === 'development';
  const checkUrl = urlChecker(options.maxUrlLength ?? 8192, development);
  const namespaces = new Set<string>();
  // relationship endpoints after every Resource's own, so they never shadow one nested below another's path
  const relationships: Array<[typeof Resource, RelationshipRoute]> = [];
  // every Resource endpoint in one table, first on the stack: explorer, OpenAPI and 404s follow
  const table = new RouteTable();
  router.use(table.dispatch);
  const register = (resource: typeof Resource, { method, path, handler, body }: RelationshipRoute) => {
    const served = serve(resource, handler, options, development);
    const negotiate = negotiation({ body }, development);
    table.add(method, path, method === 'get' ? [checkUrl, negotiate, served] : [checkUrl, negotiate, bodyReader(readBody, development), served]);
  };
  for (const resource of options.resources) {
    if (resource.abstractClass) continue;
    if (resource.endpointNamespace) namespaces.add(resource.endpointNamespace);
    for (const endpoint of resource.endpoints) {
      for (const action of endpoint.actions) {
        const route = ROUTES[action];
        if (route) register(resource, { ...route, path: route.member ? `${endpoint.path}/:id` : endpoint.path });
      }
      relationships.push(...relationshipRoutes(endpoint).map((route) => [resource, route] as [typeof Resource, RelationshipRoute]));
    }
  }
  for (const [resource, route] of relationships) register(resource, route);
  if (options.operations) {
    // the body must declare the atomic extension; the answer applies it whatever Accept preferred among what it allows
    const negotiate = negotiation({ body: true, extensions: [ATOMIC_EXTENSION], required: [ATOMIC_EXTENSION] }, development);
    serveOperations(router, options, [checkUrl, negotiate, bodyReader(readBody, development)], development);
  }
  if (options.explorer ?? process.env.NODE_ENV !== 'production') {
    const settings = { resources: options.resources, context: options.context, development, before: [checkUrl] };
    const served = options.resources.filter((resource) => !resource.abstractClass);
    for (const namespace of new Set(served.map((resource) => resource.endpointNamespace ?? ''))) serveExplorer(router, namespace, settings);
  }
  describeRouter(router, options.resources, [...namespaces], options.openapi, { operations: options.operations ?? false, context: options.context, vary: options.vary, development });
  for (const namespace of namespaces) {
    router.use(namespace, checkUrl, (req, res) => sendError(res, new RouteNotFound(req.method, req.originalUrl.split('?')[0]!), development));
  }
  router.use(table.options);
  router.use(routingFailure(development));
  return router;
}

/** `POST {ns}/operations` for each namespace of the Resources, writing that namespace's Resources. */
function serveOperations(router: Router, options: MuralRouterOptions, before: RequestHandler[], development: boolean): void {
  const served = options.resources.filter((resource) => !resource.abstractClass);
  for (const namespace of new Set(served.map((resource) => resource.endpointNamespace ?? ''))) {
    const path = `${namespace}/operations`;
    const resources = served.filter((resource) => (resource.endpointNamespace ?? '') === namespace);
    const taken = resources.find((resource) => resource.endpoints.some((endpoint) => endpoint.path === path));
    if (taken) throw new ResourceConfigurationError(`${taken.name} is served at ${path}, where operations: true serves atomic operations`);
    router.post(path, ...before, operationsHandler({ resources, context: options.context, development, serverTiming: options.serverTiming ?? development }));
  }
}

/**
 * Errors Express raises before a handler runs, such as a path segment that is
 * not valid percent-encoding (`/employees/%FF`): answered as JSON:API documents
 * rather than Express's HTML page.
 */
function routingFailure(development: boolean) {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = (error as { status?: unknown }).status;
    if (error instanceof URIError || status === 400) {
      return sendError(res, new BadRequestError('invalid_path', 'The URL path is not valid percent-encoded UTF-8'), development);
    }
    sendError(res, error, development);
  };
}

function bodyReader(readBody: ReturnType<typeof express.raw>, development: boolean) {
  return (req: Request, res: Response, next: NextFunction) => {
    readBody(req, res, (error?: unknown) => {
      if (!error) return decoded(req, res, next, development);
      const status = (error as { status?: number }).status ?? 400;
      const refusal =
        status === 413
          ? new RequestTooLarge(413, 'payload_too_large', (error as Error).message, { pointer: '' })
          : new BadRequestError('invalid_body', bodyFailure(req, error as Error), { pointer: '' });
      sendError(res, refusal, development, { status });
    });
  };
}

/**
 * The body as text, refused with a 400 unless it is valid UTF-8 (JSON's only
 * encoding on the wire): a lenient decoder would store U+FFFD in place of
 * bytes the client sent, as the query string refuses `%FF` rather than guess.
 * One pass of the decoder, which it makes anyway; no second scan.
 */
function decoded(req: Request, res: Response, next: NextFunction, development: boolean): void {
  const bytes: unknown = req.body;
  if (!Buffer.isBuffer(bytes)) {
    req.body = '';
    return next();
  }
  try {
    req.body = STRICT_UTF8.decode(bytes);
  } catch {
    return sendError(res, new BadRequestError('invalid_encoding', 'The body is not valid UTF-8', { pointer: '' }), development);
  }
  next();
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/** What a client is told of a body that could not be read: zlib's own words ("incorrect header check") say nothing to it. */
function bodyFailure(req: Request, error: Error): string {
  const code: unknown = (error as Error & { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('Z_') ? `The body is not valid ${String(req.headers['content-encoding'])} data` : error.message;
}

/** Refuses a URL over the limit before any parsing of it: a JSON:API 414 rather than work proportional to its length. */
function urlChecker(maxLength: number, development: boolean) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.originalUrl.length <= maxLength) return next();
    sendError(res, new RequestTooLarge(414, 'uri_too_long', `The URL is ${req.originalUrl.length} characters long; the maximum is ${maxLength}`), development);
  };
}

function serve(resource: typeof Resource, handler: ActionHandler, options: MuralRouterOptions, development: boolean) {
  const policy = cachePolicy(resource.cacheControl, options.context !== undefined, options.vary);
  const serverTiming = options.serverTiming ?? development;
  return async (req: Request, res: Response, _next: NextFunction) => {
    try {
      // one database time limit for the whole request: its context, reads and write
      const handle = () => withDeadline(async () => {
        const ctx = (await options.context?.(req)) ?? {};
        return withContext(ctx, () => handler(resource, req));
      });
      // inside the try: the option may be the application's function, whose failure is this request's, never the process's
      const result = await withServerTiming(serverTiming, req, res, handle);
      respond(req, res, result, policy);
    } catch (error) {
      sendError(res, error, development);
    }
  };
}

/**
 * Sends a handler's answer. Documents of GETs carry an ETag, `Cache-Control`
 * and `Vary`, and a GET whose `If-None-Match` lists the ETag gets a 304 with
 * no body; write answers about a versioned record carry its ETag.
 */
function respond(req: Request, res: Response, { status, body, text, headers = {}, version }: ActionResult, policy: CachePolicy): void {
  const read = req.method === 'GET' || req.method === 'HEAD';
  const negotiated = negotiatedFor(req);
  const sent = text ?? (body === undefined ? undefined : documentText(body, negotiated));
  const tag = sent !== undefined && (read || version !== undefined) ? entityTag(sent, version) : undefined;
  // If-Match first, as RFC 9110 §13.2.2 orders them; a GET's answer always has a tag
  if (read && tag !== undefined && status < 300) checkIfMatch(req, tag, version);
  const fresh = read && tag !== undefined && notModified(req, tag);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  if (tag) res.setHeader('ETag', tag);
  if (read) applyCachePolicy(res, policy);
  if (fresh) res.status(304).end();
  else if (sent !== undefined) sendText(res, status, sent, negotiated);
  else sendDocument(res, status, undefined);
}
