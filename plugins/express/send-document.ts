import type { Response } from 'express';
import { formatMediaType, jsonapiMember, type Negotiated } from '../../core/index.ts';

const PLAIN: Negotiated = { ext: [] };

/**
 * A JSON:API document as the text sent: with the `jsonapi` member
 * announcing the version and the extensions applied.
 */
export function documentText(body: object, negotiated: Negotiated = PLAIN): string {
  return JSON.stringify({ ...body, jsonapi: jsonapiMember(negotiated) });
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
  sendText(res, status, documentText(body, negotiated), negotiated);
}

/**
 * Sends a document's text as it is: the socket encodes it, where a Buffer
 * first would be one more copy, held outside V8's heap (external memory,
 * which V8 counts towards its next full collection).
 */
export function sendText(res: Response, status: number, text: string, negotiated: Negotiated = PLAIN): void {
  res.status(status);
  res.setHeader('Content-Type', formatMediaType(negotiated));
  res.setHeader('Content-Length', String(Buffer.byteLength(text)));
  res.end(text);
}
