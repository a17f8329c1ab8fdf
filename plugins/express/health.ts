import type { Request, Response } from 'express';
import { ServiceUnavailable } from '../../core/index.ts';
import { sendError } from './error-response.ts';
import { sendDocument } from './send-document.ts';
import { withinTimeout } from './within-timeout.ts';

/** Options of `muralHealth`, a health check endpoint. */
export interface MuralHealthOptions {
  /** Resolves when the database answers, e.g. `() => sequelize.query('SELECT 1')`. */
  check: () => Promise<unknown>;
  /** Milliseconds the check may take before the database counts as unreachable. Default 2000. */
  timeout?: number;
}

/**
 * A handler for load balancers and orchestrators: 200 with
 * `{"meta":{"status":"ok","database":"reachable"}}` when `check` resolves in
 * time, 503 with `Retry-After` when it fails or hangs. The reason stays in
 * the server's log, never in the response.
 */
export function muralHealth(options: MuralHealthOptions): (req: Request, res: Response) => Promise<void> {
  const timeout = options.timeout ?? 2000;
  return async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    try {
      await withinTimeout(options.check(), timeout, 'no answer');
      sendDocument(res, 200, { meta: { status: 'ok', database: 'reachable' } });
    } catch (error) {
      console.error('health check failed:', error instanceof Error ? error.message : error);
      sendError(res, new ServiceUnavailable('database_unreachable', 'The database did not answer the health check.'), false);
    }
  };
}
