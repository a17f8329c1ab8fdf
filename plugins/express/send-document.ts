import type { Response } from 'express';
import { formatMediaType, jsonapiMember, type Negotiated } from '../../core/index.ts';

const PLAIN: Negotiated = { ext: [] };

/**
 * A JSON:API document as the bytes sent: with the `jsonapi` member
 * announcing the version and the extensions applied.
 */
export function documentBytes(body: object, negotiated: Negotiated = PLAIN): Buffer {
  return Buffer.from(JSON.stringify({ ...body, jsonapi: jsonapiMember(negotiated) }));
}

/**
 * Sends a JSON:API document with a Content-Type with no parameter but `ext`
 * (the spec forbids others, so no `charset`). The bytes go out through
 * `res.end` rather than Express's `res.send`, which would add a weak ETag of
 * its own and answer 304s by it: Mural sets its ETags and answers
 * conditional requests itself (see conditional.ts). A body of `undefined` is
 * a 204 with no content.
 */
export function sendDocument(res: Response, status: number, body: object | undefined, negotiated: Negotiated = PLAIN): void {
  if (body === undefined) {
    res.status(status).end();
    return;
  }
  sendBytes(res, status, documentBytes(body, negotiated), negotiated);
}

export function sendBytes(res: Response, status: number, bytes: Buffer, negotiated: Negotiated = PLAIN): void {
  res.status(status);
  res.setHeader('Content-Type', formatMediaType(negotiated));
  res.setHeader('Content-Length', String(bytes.length));
  res.end(bytes);
}
