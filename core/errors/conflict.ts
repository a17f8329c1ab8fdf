import { MuralError, type MuralErrorOptions } from './mural-error.ts';

/**
 * A body whose `type` or `id` does not match the endpoint it was sent to;
 * or a write the current state of the data forbids: a delete the database
 * refuses because other records refer to the record (`meta.reason`:
 * `referenced`).
 */
export class ConflictError extends MuralError {
  readonly status = 409;
  readonly code = 'conflict';
  readonly title = 'Conflict';

  constructor(detail: string, options: MuralErrorOptions = {}) {
    super(detail, options);
  }
}
