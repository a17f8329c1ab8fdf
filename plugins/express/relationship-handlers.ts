import type { Request } from 'express';
import { parseQueryString, RelationshipWrite, type Endpoint, type RelationshipOperation, type Resource, withOwnWrites } from '../../core/index.ts';
import { requestOf, trailingMembers, type ActionHandler } from './read-handlers.ts';
import { bodyOf } from './write-handlers.ts';
import { ifMatchOf, ifNoneMatchOf } from './conditional.ts';

export interface RelationshipRoute {
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  handler: ActionHandler;
  body: boolean;
}

/**
 * The relationship endpoints below a Resource's records: the reads where it
 * shows records (`show`), the writes where it updates them (`update`), since
 * a relationship write is an update of the record.
 */
export function relationshipRoutes(endpoint: Endpoint): RelationshipRoute[] {
  const relationship = `${endpoint.path}/:id/relationships/:relationship`;
  const routes: RelationshipRoute[] = [];
  if (endpoint.actions.includes('show')) {
    routes.push(
      { method: 'get', path: relationship, handler: linkage, body: false },
      { method: 'get', path: `${endpoint.path}/:id/:relationship`, handler: related, body: false },
    );
  }
  if (endpoint.actions.includes('update')) {
    routes.push(
      { method: 'patch', path: relationship, handler: write('replace'), body: true },
      { method: 'post', path: relationship, handler: write('add'), body: true },
      { method: 'delete', path: relationship, handler: write('remove'), body: true },
    );
  }
  return routes;
}

/** The related proxy of a request; `withQuery: false` reads the relationship whatever the URL's query says. */
function relatedProxy(resource: typeof Resource, req: Request, withQuery = true) {
  const request = requestOf(req, 'show');
  const query = withQuery ? request.query : '';
  return resource.find({ id: String(req.params.id) }).related(String(req.params.relationship), parseQueryString(query), { request: { ...request, query } });
}

/** GET {ns}/{type}/{id}/{relationship}: the related records, as include gives them, with every index parameter. */
const related: ActionHandler = async (resource, req) => {
  const text = await relatedProxy(resource, req).toJsonapiText(trailingMembers(req));
  return { status: 200, body: undefined, text };
};

/** GET {ns}/{type}/{id}/relationships/{relationship}: the linkage. */
const linkage: ActionHandler = async (resource, req) => {
  const body = await relatedProxy(resource, req).toLinkage();
  return { status: 200, body };
};

/**
 * PATCH, POST, DELETE on a relationship endpoint: 204 when the relationship
 * is now what the request said, otherwise 200 with its linkage (JSON:API 1.1,
 * "Updating Relationships"); 422 with the errors of an invalid write.
 */
function write(operation: RelationshipOperation): ActionHandler {
  return async (resource, req) => {
    const writer = new RelationshipWrite(resource, String(req.params.id), String(req.params.relationship), operation, bodyOf(req), { ifMatch: ifMatchOf(req), ifNoneMatch: ifNoneMatchOf(req) });
    if (!(await writer.save())) return { status: 422, body: { errors: writer.errors } };
    if (await writer.asRequested()) return { status: 204, body: undefined };
    // the query string of a write names nothing about the linkage read back, which must show the write
    return { status: 200, body: await withOwnWrites(() => relatedProxy(resource, req, false).toLinkage()) };
  };
}
