import { ServiceUnavailable } from './service-unavailable.ts';

/**
 * The request's database work outlasted `databaseTimeout`: the running
 * statement was cancelled in the database and a write rolled back. A 503
 * rather than a 504: Mural is the origin server, not a gateway, and a 504
 * would read as a proxy in front of it giving up, with the query possibly
 * still running. The client may retry, or narrow the request.
 */
export class DatabaseTimeout extends ServiceUnavailable {
  constructor(readonly timeout: number) {
    super('database_timeout', `The database did not answer within ${timeout} ms; the query was cancelled and nothing was written`, Math.max(1, Math.ceil(timeout / 1000)));
  }
}
