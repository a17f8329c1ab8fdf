import type { Request } from 'express';
import { jsonapiMember, parseQueryString, type Resource } from '../../core/index.ts';
import { negotiatedFor } from './negotiation.ts';

/** What a handler answers: a status, a document (none for a 204) and any headers of its own. */
export interface ActionResult {
  status: number;
  body: object | undefined;
  /** The document already written as JSON text, `jsonapi` member included: sent as it is, `body` ignored. */
  text?: string;
  headers?: Record<string, string>;
  /** The version of the record the document is about, for its ETag (see conditional.ts). */
  version?: string;
}

export type ActionHandler = (resource: typeof Resource, req: Request) => Promise<ActionResult>;

/** The request a proxy answers: its path and raw query, for links. */
export function requestOf(req: Request, action: 'index' | 'show') {
  const [path, query = ''] = req.originalUrl.split('?', 2) as [string, string?];
  return { path, query, action } as const;
}

/** GET {ns}/{type}: a page of records. */
export const index: ActionHandler = async (resource, req) => {
  const request = requestOf(req, 'index');
  const text = await resource.all(parseQueryString(request.query), undefined, { request }).toJsonapiText(trailingMembers(req));
  return { status: 200, body: undefined, text };
};

/** GET {ns}/{type}/{id}: one record, 404 when absent. */
export const show: ActionHandler = async (resource, req) => {
  const request = requestOf(req, 'show');
  const params = { ...parseQueryString(request.query), id: String(req.params.id) };
  const proxy = resource.find(params, undefined, { request });
  const text = await proxy.toJsonapiText(trailingMembers(req));
  return { status: 200, body: undefined, text, version: await proxy.version() };
};

/** What the transport adds after a read's document: the `jsonapi` member, with the extensions negotiated. */
export function trailingMembers(req: Request): { jsonapi: ReturnType<typeof jsonapiMember> } {
  return { jsonapi: jsonapiMember(negotiatedFor(req)) };
}
