import type { NextFunction, Request, Response } from 'express';
import { negotiateAccept, negotiateContentType, type Negotiated } from '../../core/index.ts';
import { sendError } from './error-response.ts';

export interface NegotiationOptions {
  /** Extensions the route applies when a request asks for them. Default none. */
  extensions?: readonly string[];
  /** Extensions a request body must declare (the atomic endpoint's). */
  required?: readonly string[];
  /** Whether the route reads a body, and so checks its Content-Type. */
  body: boolean;
}

const negotiated = new WeakMap<Request, Negotiated>();

/**
 * JSON:API 1.1 content negotiation, before anything is read: 406 for an
 * `Accept` Mural cannot answer, 415 for a body it will not read. A request
 * with no body (no Content-Length or a zero one, no Transfer-Encoding) has no
 * Content-Type to check: its handler answers the missing document.
 */
export function negotiation(options: NegotiationOptions, development: boolean) {
  return (req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Vary', 'Accept');
    try {
      const answer = negotiateAccept(req.headers.accept, options.extensions);
      if (options.body && hasBody(req)) negotiateContentType(req.headers['content-type'], options.extensions, options.required);
      negotiated.set(req, answer);
      next();
    } catch (error) {
      sendError(res, error, development);
    }
  };
}

/** What the request negotiated; no extension when the route did not negotiate. */
export function negotiatedFor(req: Request): Negotiated {
  return negotiated.get(req) ?? { ext: [] };
}

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
