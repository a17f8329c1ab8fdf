import type { Request, Response } from 'express';
import { performance } from 'node:perf_hooks';
import { withDatabaseLog, type DatabaseEvent } from '../../core/index.ts';

/** The router's `serverTiming` option: on for every request, or decided per request. */
export type ServerTimingOption = boolean | ((req: Request) => boolean);

/** Operations listed one by one; the rest are summed into one entry, so the header stays short. */
export const MAX_TIMED_OPERATIONS = 30;

/**
 * One request's `Server-Timing` header: each database operation its
 * Resources ran (`db;dur=1.20;desc="employees resolve, 20 records"`), in the
 * order they finished, and the whole of Mural's handling
 * (`total;dur=…`), which browsers' developer tools show beside the request.
 * Operations that ran at once overlap: their durations do not add up to
 * the total.
 */
export class RequestTiming {
  private readonly started = performance.now();
  private readonly log: DatabaseEvent[] = [];

  /** Runs the request's handling with its database operations logged. */
  run<R>(fn: () => R): R {
    return withDatabaseLog(this.log, fn);
  }

  /** Sets the header; a response that is already under way keeps its headers. */
  applyTo(res: Response): void {
    if (!res.headersSent) res.setHeader('Server-Timing', this.header());
  }

  header(): string {
    const listed = this.log.slice(0, MAX_TIMED_OPERATIONS).map((event) => metric('db', event.duration, describe(event)));
    const rest = this.log.slice(MAX_TIMED_OPERATIONS);
    if (rest.length > 0) listed.push(metric('db', rest.reduce((sum, e) => sum + e.duration, 0), `${rest.length} more operations`));
    listed.push(metric('total', performance.now() - this.started, 'Mural'));
    return listed.join(', ');
  }
}

/** A request's timing when the option turns it on for this request. */
function timingFor(option: ServerTimingOption, req: Request): RequestTiming | undefined {
  return (typeof option === 'function' ? option(req) : option) ? new RequestTiming() : undefined;
}

/**
 * Runs a request's handling, its database operations logged when `option`
 * turns timing on for it, and sets the header before whatever the caller
 * sends next, answer or error. A throwing option function rejects like the
 * handling itself, so the caller answers it as this request's failure.
 */
export async function withServerTiming<R>(option: ServerTimingOption, req: Request, res: Response, handle: () => Promise<R>): Promise<R> {
  const timing = timingFor(option, req);
  try {
    return await (timing ? timing.run(handle) : handle());
  } finally {
    timing?.applyTo(res);
  }
}

function describe(event: DatabaseEvent): string {
  const records = event.records === undefined ? '' : `, ${event.records} record${event.records === 1 ? '' : 's'}`;
  return `${event.resource} ${event.operation}${records}${event.error === undefined ? '' : ', failed'}`;
}

function metric(name: string, duration: number, description: string): string {
  // a quoted-string: backslash and quote escaped, and nothing a header cannot carry
  const quoted = description.replace(/[^\x20-\x7e]/g, '?').replace(/["\\]/g, '\\$&');
  return `${name};dur=${duration.toFixed(2)};desc="${quoted}"`;
}
