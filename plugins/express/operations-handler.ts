import type { NextFunction, Request, Response } from 'express';
import { ATOMIC_EXTENSION, InvalidQueryError, parseQueryString, runOperations, withContext, withDeadline, type AtomicOperationsDocument, type MuralContext, type Resource } from '../../core/index.ts';
import { sendError } from './error-response.ts';
import { sendDocument } from './send-document.ts';
import { withServerTiming, type ServerTimingOption } from './server-timing.ts';
import { bodyOf } from './write-handlers.ts';

const APPLIED = { ext: [ATOMIC_EXTENSION] };

export interface OperationsEndpoint {
  /** The Resources of the endpoint's namespace, which its operations may write. */
  resources: ReadonlyArray<typeof Resource>;
  context?: (req: Request) => MuralContext | Promise<MuralContext>;
  development: boolean;
  serverTiming: ServerTimingOption;
}

/**
 * `POST {ns}/operations`: JSON:API's Atomic Operations extension, once the
 * router's negotiation has seen the extension in the request's Content-Type.
 * 200 with the `atomic:results` document (also when every result is empty),
 * in the extension's media type; or the error of the operation that failed,
 * nothing written.
 */
export function operationsHandler(endpoint: OperationsEndpoint) {
  return async (req: Request, res: Response, _next: NextFunction) => {
    try {
      refuseQuery(req);
      // one database time limit for the whole request: its context and every operation
      const handle = () => withDeadline(async () => {
        const ctx = (await endpoint.context?.(req)) ?? {};
        return withContext(ctx, () => runOperations(bodyOf(req) as AtomicOperationsDocument, { resources: endpoint.resources }));
      });
      const body = await withServerTiming(endpoint.serverTiming, req, res, handle);
      sendDocument(res, 200, body, APPLIED);
    } catch (error) {
      // its errors point into the extension's document (`/atomic:operations/2/…`): the same media type
      sendError(res, error, endpoint.development, { negotiated: APPLIED });
    }
  };
}

/**
 * The endpoint takes no query parameter: JSON:API asks a 400 for one a
 * server does not support, and a client sending `?include=notes` expects
 * something the answer would silently not do. Its encoding is checked first,
 * so `%FF` is the same `invalid_encoding` as anywhere else.
 */
function refuseQuery(req: Request): void {
  const query = req.originalUrl.split('?', 2)[1] ?? '';
  if (query === '') return;
  parseQueryString(query);
  const name = new URLSearchParams(query).keys().next().value;
  if (name === undefined) return;
  throw new InvalidQueryError('unsupported_parameter', `The operations endpoint takes no query parameter; ${JSON.stringify(name)} is not supported here`, { parameter: name });
}
