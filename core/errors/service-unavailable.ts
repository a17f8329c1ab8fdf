import { MuralError } from './mural-error.ts';

/**
 * The request was fine but the database could not serve it now: a write
 * waited too long for SQLite's single writer, a connection was lost, a
 * deadlock was broken. Nothing was written; the client may try again after
 * `retryAfter` seconds, which transports send as a `Retry-After` header.
 */
export class ServiceUnavailable extends MuralError {
  readonly status = 503;
  readonly title = 'Service Unavailable';
  readonly code: string;
  readonly retryAfter: number;

  constructor(code: string, detail: string, retryAfter = 1) {
    super(detail, { meta: { retry_after: retryAfter } });
    this.code = code;
    this.retryAfter = retryAfter;
  }

  override responseHeaders(): Record<string, string> {
    return { 'Retry-After': String(this.retryAfter) };
  }
}
