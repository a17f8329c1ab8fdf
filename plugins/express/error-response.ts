import type { Response } from 'express';
import { InternalServerError, MuralError, type JsonApiErrorObject } from '../../core/index.ts';
import { sendDocument } from './send-document.ts';

/**
 * Sends any thrown value as a JSON:API error document. Mural's own errors
 * render as themselves; anything else is a 500 whose details (message, stack)
 * are shown only in development mode.
 */
export function sendError(res: Response, error: unknown, development: boolean, status?: number): void {
  const known = error instanceof MuralError ? error : undefined;
  const rendered = known ?? new InternalServerError();
  const document: { errors: JsonApiErrorObject[] } = rendered.toJsonapi();
  if (!known && development && error instanceof Error) {
    document.errors[0]!.meta = { exception: error.message, backtrace: error.stack?.split('\n').slice(1).map((l) => l.trim()) };
  }
  if (!known && !development) console.error(error);
  if (status) document.errors[0]!.status = String(status);
  for (const [name, value] of Object.entries(rendered.responseHeaders())) res.setHeader(name, value);
  sendDocument(res, status ?? rendered.status, document);
}
