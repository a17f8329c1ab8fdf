import { MuralError, type MuralErrorOptions } from './mural-error.ts';

/** `find` matched no record, or a referenced id does not exist. */
export class RecordNotFound extends MuralError {
  readonly status = 404;
  readonly code = 'not_found';
  readonly title = 'Not Found';

  constructor(type: string, id: unknown, options: MuralErrorOptions = {}) {
    super(`No ${type} record with id ${JSON.stringify(String(id))}`, options);
  }
}

/** No route answers the request's method and path. */
export class RouteNotFound extends MuralError {
  readonly status = 404;
  readonly code = 'not_found';
  readonly title = 'Not Found';

  constructor(method: string, path: string) {
    super(`No route for ${method} ${path}`);
  }
}

/**
 * A relationship endpoint named a relationship the record does not have, or
 * one the request may not read: the same answer for both, so a guarded
 * relationship is hidden exactly as `include` hides it.
 */
export class RelationshipNotFound extends MuralError {
  readonly status = 404;
  readonly code = 'not_found';
  readonly title = 'Not Found';

  constructor(type: string, name: string) {
    super(`No relationship ${JSON.stringify(name)} on ${type}`);
  }
}

/** A Resource was reached through a URL it is not allowlisted for (`validateEndpoints`). */
export class InvalidEndpointError extends MuralError {
  readonly status = 404;
  readonly code = 'invalid_endpoint';
  readonly title = 'Not Found';

  constructor(resourceName: string, path: string, action: string) {
    super(`${resourceName} is not served at ${path} for action ${action}`);
  }
}
