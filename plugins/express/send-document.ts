import type { Response } from 'express';
import { formatMediaType, jsonapiMember, type Negotiated } from '../../core/index.ts';

const PLAIN: Negotiated = { ext: [] };

/**
 * Sends a JSON:API document with the `jsonapi` member announcing the version
 * and the extensions applied, and a Content-Type with no parameter but `ext`
 * (the spec forbids others, so no `charset`: Express adds one to strings,
 * hence the Buffer). A body of `undefined` is a 204 with no content.
 */
export function sendDocument(res: Response, status: number, body: object | undefined, negotiated: Negotiated = PLAIN): void {
  res.status(status);
  if (body === undefined) {
    res.end();
    return;
  }
  res.setHeader('Content-Type', formatMediaType(negotiated));
  res.send(Buffer.from(JSON.stringify({ ...body, jsonapi: jsonapiMember(negotiated) })));
}
