import type { NextFunction, Request, Response } from 'express';
import { runOperations, withContext, withDeadline, type AtomicOperationsDocument, type MuralContext, type Resource } from '../../core/index.ts';
import { assertAtomicContentType, ATOMIC_MEDIA_TYPE } from './atomic-media-type.ts';
import { sendError } from './error-response.ts';
import { bodyOf } from './write-handlers.ts';

export interface OperationsEndpoint {
  /** The Resources of the endpoint's namespace, which its operations may write. */
  resources: ReadonlyArray<typeof Resource>;
  context?: (req: Request) => MuralContext | Promise<MuralContext>;
  development: boolean;
}

/**
 * `POST {ns}/operations`: JSON:API's Atomic Operations extension. 200 with
 * the `atomic:results` document (also when every result is empty), or the
 * error of the operation that failed, nothing written.
 */
export function operationsHandler(endpoint: OperationsEndpoint) {
  return async (req: Request, res: Response, _next: NextFunction) => {
    try {
      assertAtomicContentType(req.header('content-type'));
      // one database time limit for the whole request: its context and every operation
      const body = await withDeadline(async () => {
        const ctx = (await endpoint.context?.(req)) ?? {};
        return withContext(ctx, () => runOperations(bodyOf(req) as AtomicOperationsDocument, { resources: endpoint.resources }));
      });
      // a Buffer, so Express adds no charset to the media type
      res.status(200).setHeader('Content-Type', ATOMIC_MEDIA_TYPE);
      res.send(Buffer.from(JSON.stringify(body)));
    } catch (error) {
      sendError(res, error, endpoint.development);
    }
  };
}
