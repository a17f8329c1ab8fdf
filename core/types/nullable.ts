import { TypeCoercionError } from '../errors/index.ts';
import type { Coercion } from './type-definition.ts';

/** Aborts a coercion with the TypeCoercionError for the value being coerced. */
export type Fail = () => never;

/**
 * Wraps a coercion so null and undefined pass through as null: whether null
 * is acceptable is the caller's decision (allowNil, column constraints), not
 * the type's.
 */
export function nullable(typeName: string, coerce: (value: unknown, fail: Fail) => unknown): Coercion {
  return (value) => {
    if (value === null || value === undefined) return null;
    return coerce(value, () => {
      throw new TypeCoercionError(typeName, value);
    });
  };
}

export function parseJson(text: string, fail: Fail): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return fail();
  }
}

/** Only `{}`-style objects: a Date, Map or class instance is not a JSON object. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
