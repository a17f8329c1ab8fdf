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
    try {
      return coerce(value, fail);
    } catch (error) {
      if (error === FAILED) throw new TypeCoercionError(typeName, value);
      throw error;
    }
  };
}

// One shared `fail` rather than a closure per coerced value: rendering coerces every attribute of every record.
const FAILED = Symbol('coercion failed');
const fail: Fail = () => {
  throw FAILED;
};

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
