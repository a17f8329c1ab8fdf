import { MuralError } from './mural-error.ts';

/**
 * No media type the client accepts can be served (JSON:API 1.1, "Server
 * Responsibilities"): every JSON:API instance in `Accept` carries a parameter
 * other than `ext` and `profile`, or asks for extensions the endpoint does
 * not apply, or `Accept` names no JSON type at all.
 */
export class NotAcceptable extends MuralError {
  readonly status = 406;
  readonly code = 'not_acceptable';
  readonly title = 'Not Acceptable';

  constructor(detail: string) {
    super(detail, { header: 'Accept' });
  }
}

/**
 * The request body's media type is not one Mural reads: not JSON:API (or
 * JSON), or JSON:API with a parameter other than `ext` and `profile`, or with
 * an extension the endpoint does not apply. Nothing was read or written.
 */
export class UnsupportedMediaType extends MuralError {
  readonly status = 415;
  readonly code = 'unsupported_media_type';
  readonly title = 'Unsupported Media Type';

  constructor(detail: string) {
    super(detail, { header: 'Content-Type' });
  }
}
