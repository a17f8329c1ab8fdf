import type { Request } from 'express';
import { BadRequestError, parseQueryString, WriteProxy, type JsonApiDocument, type Resource, type ResourceObject, type WriteTarget } from '../../core/index.ts';
import type { ActionHandler } from './read-handlers.ts';
import { ifMatchOf, ifNoneMatchOf } from './conditional.ts';

/** The request body as JSON; the router reads it as text so malformed JSON is a JSON:API 400. */
export function bodyOf(req: Request): unknown {
  const text = typeof req.body === 'string' ? req.body : '';
  if (text.trim() === '') throw new BadRequestError('invalid_document', 'The request needs a JSON:API document body', { pointer: '' });
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new BadRequestError('invalid_json', `The body is not valid JSON: ${(error as Error).message}`, { pointer: '' });
  }
}

async function write(resource: typeof Resource, req: Request, target: WriteTarget, body: unknown) {
  const query = req.originalUrl.split('?', 2)[1] ?? '';
  const proxy = new WriteProxy(resource, body, target, parseQueryString(query));
  if (!(await proxy.save())) return { status: 422, body: { errors: proxy.errors } };
  return { status: 200, body: await proxy.toJsonapi(), version: proxy.version };
}

/** POST {ns}/{type}: 201 with the created record and everything sideposted with it, and its URL in `Location`. */
export const create: ActionHandler = async (resource, req) => {
  const result = await write(resource, req, { action: 'create' }, bodyOf(req));
  if (result.status !== 200) return result;
  const created = (result.body as JsonApiDocument).data as ResourceObject;
  const path = req.originalUrl.split('?', 2)[0]!.replace(/\/+$/, '');
  return { ...result, status: 201, headers: { Location: `${path}/${encodeURIComponent(created.id)}` } };
};

/** PATCH {ns}/{type}/{id}. */
export const update: ActionHandler = (resource, req) => write(resource, req, { action: 'update', id: String(req.params.id), ifMatch: ifMatchOf(req), ifNoneMatch: ifNoneMatchOf(req) }, bodyOf(req));

/** DELETE {ns}/{type}/{id}: 200 with an empty meta. */
export const destroy: ActionHandler = async (resource, req) => {
  const result = await write(resource, req, { action: 'destroy', id: String(req.params.id), ifMatch: ifMatchOf(req), ifNoneMatch: ifNoneMatchOf(req) }, undefined);
  return result.status === 200 ? { status: 200, body: { meta: {} } } : result;
};
