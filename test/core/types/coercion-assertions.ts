import type { ExecutionContext } from 'ava';
import { TypeCoercionError } from '../../../core/errors/index.ts';
import type { Coercion } from '../../../core/types/index.ts';

const show = (value: unknown): string => {
  if (typeof value === 'bigint') return `${value}n`;
  if (value instanceof Date) return `Date(${Number.isNaN(value.getTime()) ? 'invalid' : value.toISOString()})`;
  return JSON.stringify(value) ?? String(value);
};

/** Each [input, expected] pair coerces to exactly `expected` (deep equality, so Dates compare by time). */
export function coerces(t: ExecutionContext, coerce: Coercion, pairs: ReadonlyArray<readonly [unknown, unknown]>): void {
  for (const [input, expected] of pairs) t.deepEqual(coerce(input), expected, `${show(input)} → ${show(expected)}`);
}

/** Each value fails with a 400 TypeCoercionError naming `typeName` and the value as given. */
export function refuses(t: ExecutionContext, coerce: Coercion, typeName: string, values: readonly unknown[]): void {
  for (const value of values) {
    const error = t.throws(() => coerce(value), { instanceOf: TypeCoercionError }, `${show(value)} should fail`);
    if (!error) continue;
    t.is(error.typeName, typeName, show(value));
    t.is(error.value, value, show(value));
    t.is(error.status, 400);
    t.is(error.code, 'type_error');
  }
}
