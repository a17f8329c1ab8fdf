import { MuralError } from './mural-error.ts';

/**
 * A client that did not finish sending its request in time (a slow or
 * stalled client): nothing of it was handled, and the connection closes.
 */
export class RequestTimeout extends MuralError {
  readonly status = 408;
  readonly code = 'request_timeout';
  readonly title = 'Request Timeout';
}
