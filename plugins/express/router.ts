import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { prepareResources, RouteNotFound, withContext, type Action, type MuralContext, type Resource } from '../../core/index.ts';
import { sendError } from './error-response.ts';
import { JSONAPI_MEDIA_TYPE } from './media-type.ts';
import { index, show, type ActionHandler } from './read-handlers.ts';

export interface MuralRouterOptions {
  resources: ReadonlyArray<typeof Resource>;
  /** Builds the request context guards and scopes read (the current user, a role…). */
  context?: (req: Request) => MuralContext | Promise<MuralContext>;
  /** Show exception messages and stacks in 500 responses. Default: NODE_ENV is `development`. */
  development?: boolean;
}

interface Route {
  method: 'get' | 'post' | 'patch' | 'delete';
  member: boolean;
  handler: ActionHandler;
}

/** Handlers by action; an action a Resource does not allow is simply not routed. */
const ROUTES: Partial<Record<Action, Route>> = {
  index: { method: 'get', member: false, handler: index },
  show: { method: 'get', member: true, handler: show },
};

/** An Express router serving every endpoint of the given Resources. */
export function muralRouter(options: MuralRouterOptions): Router {
  prepareResources();
  const router = express.Router();
  const development = options.development ?? process.env.NODE_ENV === 'development';
  const namespaces = new Set<string>();
  for (const resource of options.resources) {
    if (resource.abstractClass) continue;
    if (resource.endpointNamespace) namespaces.add(resource.endpointNamespace);
    for (const endpoint of resource.endpoints) {
      for (const action of endpoint.actions) {
        const route = ROUTES[action];
        if (!route) continue;
        const path = route.member ? `${endpoint.path}/:id` : endpoint.path;
        router[route.method](path, serve(resource, route.handler, options, development));
      }
    }
  }
  for (const namespace of namespaces) {
    router.use(namespace, (req, res) => sendError(res, new RouteNotFound(req.method, req.originalUrl.split('?')[0]!), development));
  }
  return router;
}

function serve(resource: typeof Resource, handler: ActionHandler, options: MuralRouterOptions, development: boolean) {
  return async (req: Request, res: Response, _next: NextFunction) => {
    try {
      const ctx = (await options.context?.(req)) ?? {};
      const { status, body } = await withContext(ctx, () => handler(resource, req));
      res.status(status).type(JSONAPI_MEDIA_TYPE).send(JSON.stringify(body));
    } catch (error) {
      sendError(res, error, development);
    }
  };
}
