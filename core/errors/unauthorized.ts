import { MuralError, type MuralErrorOptions } from './mural-error.ts';

/**
 * The request's credentials are missing where required, malformed, expired
 * or forged: what an app's `context` function throws when authentication
 * fails. Answered 401 with `WWW-Authenticate` naming the scheme (RFC 9110
 * §11.6.1; RFC 6750 for bearer tokens), never saying which check failed
 * beyond `error="invalid_token"`.
 */
export class Unauthorized extends MuralError {
  readonly status = 401;
  readonly code = 'unauthorized';
  readonly title = 'Unauthorized';

  constructor(
    detail = 'The request\'s credentials are missing or not valid',
    private readonly challenge = 'Bearer error="invalid_token"',
    options: MuralErrorOptions = {},
  ) {
    super(detail, { header: 'Authorization', ...options });
  }

  override responseHeaders(): Record<string, string> {
    return { 'WWW-Authenticate': this.challenge };
  }
}
