import { MuralError } from './mural-error.ts';

/** What a client sees for anything unexpected: no stack, no SQL. */
export class InternalServerError extends MuralError {
  readonly status = 500;
  readonly code = 'internal_server_error';
  readonly title = 'Internal Server Error';

  constructor(detail = 'The server could not complete the request.') {
    super(detail);
  }
}

/** A Resource declared in a way Mural cannot serve; raised at declaration or first use. */
export class ResourceConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ResourceConfigurationError';
  }
}
