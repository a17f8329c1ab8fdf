import { MuralError, type JsonApiErrorObject } from './mural-error.ts';

/** Where the errors of a failed operation point, relative to the operation. */
export interface OperationPointers {
  /** For an error that points at no member (a guard's 403, a missing record…): default the operation itself. */
  fallback?: string;
  /** Every error, whatever it points at. */
  at?: string;
}

/**
 * One operation of an atomic operations request failed, so none of them
 * took effect: the operation's own error (its status, code and details),
 * each pointer moved under the operation (`/data/attributes/age` of
 * operation 3 is `/atomic:operations/3/data/attributes/age`).
 */
export class OperationFailed extends MuralError {
  readonly status: number;
  readonly code: string;
  readonly title: string;

  constructor(
    /** `/atomic:operations/3`. */
    readonly operation: string,
    readonly failure: MuralError,
    private readonly pointers: OperationPointers = {},
  ) {
    super(failure.message, { pointer: operation });
    this.status = failure.status;
    this.code = failure.code;
    this.title = failure.title;
  }

  override toJsonapiErrors(): JsonApiErrorObject[] {
    return this.failure.toJsonapiErrors().map((error) => {
      const inner = error.source?.pointer;
      const relative = this.pointers.at ?? (typeof inner === 'string' ? inner : (this.pointers.fallback ?? ''));
      return { ...error, source: { pointer: `${this.operation}${relative}` } };
    });
  }

  override responseHeaders(): Record<string, string> {
    return this.failure.responseHeaders();
  }
}
