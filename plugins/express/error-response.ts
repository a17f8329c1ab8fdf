import type { Response } from 'express';
import { InternalServerError, MuralError, type JsonApiErrorObject, type Negotiated } from '../../core/index.ts';
import { sendDocument } from './send-document.ts';

/** Options of `sendError`. */
export interface SendErrorOptions {
  /** The status to answer instead of the error's own. */
  status?: number;
  /** The extensions the endpoint applies, so that its errors are sent in the media type its answers are. */
  negotiated?: Negotiated;
}

/**
 * Sends any thrown value as a JSON:API error document. Mural's own errors
 * render as themselves; anything else is a 500 whose details (message, stack)
 * are shown only in development mode.
 */
export function sendError(res: Response, error: unknown, development: boolean, options: SendErrorOptions = {}): void {
  const { status, negotiated } = options;
  const known = error instanceof MuralError ? error : undefined;
  const rendered = known ?? new InternalServerError();
  const document: { errors: JsonApiErrorObject[] } = rendered.toJsonapi();
  if (!known && development && error instanceof Error) {
    document.errors[0]!.meta = { exception: error.message, backtrace: error.stack?.split('\n').slice(1).map((l) => l.trim()) };
  }
  if (!known && !development) console.error(error);
  if (status) document.errors[0]!.status = String(status);
  for (const [name, value] of Object.entries(rendered.responseHeaders())) res.setHeader(name, value);
  sendDocument(res, status ?? rendered.status, document, negotiated);
}
