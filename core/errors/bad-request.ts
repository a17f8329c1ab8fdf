import { MuralError, type MuralErrorOptions } from './mural-error.ts';

/**
 * A request Mural cannot answer as asked: unknown or disallowed parameters,
 * values that fail coercion, limits exceeded. Always 400, and always names the
 * offending query parameter or body member.
 */
export class BadRequestError extends MuralError {
  readonly status = 400;
  readonly code: string;
  readonly title: string;

  constructor(code: string, detail: string, options: Omit<MuralErrorOptions, 'detail'> = {}, title = 'Bad Request') {
    super(detail, options);
    this.code = code;
    this.title = title;
  }
}

/** A query parameter Mural does not know or does not allow. */
export class InvalidQueryError extends BadRequestError {}

/** A value (in a query or a body) that its type cannot coerce. */
export class TypeCoercionError extends BadRequestError {
  readonly typeName: string;
  readonly value: unknown;

  constructor(typeName: string, value: unknown, options: Omit<MuralErrorOptions, 'detail'> = {}) {
    super('type_error', `${describe(value)} should be type ${typeName}`, options, 'Invalid Value');
    this.typeName = typeName;
    this.value = value;
  }

  /** The same failure, located at a query parameter or body member. */
  at(location: { parameter?: string; pointer?: string }): TypeCoercionError {
    return new TypeCoercionError(this.typeName, this.value, location);
  }
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
