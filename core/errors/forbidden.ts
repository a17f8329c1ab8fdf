import { MuralError, type MuralErrorOptions } from './mural-error.ts';

/**
 * A Resource-level guard refused the action. Raised before any query runs,
 * so the answer is the same whether or not a record with the requested id
 * exists: it reveals that the endpoint is guarded (the schema says so
 * anyway), never anything about its records.
 */
export class Forbidden extends MuralError {
  readonly status = 403;
  readonly code = 'forbidden';
  readonly title = 'Forbidden';

  constructor(type: string, action: string, options: MuralErrorOptions = {}) {
    super(`You may not ${action} ${type}`, options);
  }
}

/**
 * A relationship request the server does not support (JSON:API's 403 for
 * relationship updates): adding members to or removing them from a to-one
 * relationship, which only a replacement (PATCH) sets.
 */
export class UnsupportedOperation extends MuralError {
  readonly status = 403;
  readonly code = 'unsupported_operation';
  readonly title = 'Forbidden';

  constructor(detail: string, options: MuralErrorOptions = {}) {
    super(detail, options);
  }
}

/**
 * A row rule refused a write on a record the caller may read: updating or
 * destroying it, linking it into a relationship, or leaving a created or
 * updated record outside what the caller may create or update (moving it
 * into another tenant). Nothing is written.
 */
export class RowForbidden extends MuralError {
  readonly status = 403;
  readonly code = 'forbidden_by_rule';
  readonly title = 'Forbidden';

  constructor(detail: string, options: MuralErrorOptions = {}) {
    super(detail, options);
  }
}
