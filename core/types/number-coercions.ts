import { nullable } from './nullable.ts';

const INTEGER = /^[+-]?\d+$/;
/** Plain decimal notation with an optional exponent; no hex, no "Infinity". */
const NUMERIC = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;

/** Adding 0 turns -0 into 0, so "-0" never reaches a query or a model. */
const safe = (n: number): number | undefined => (Number.isSafeInteger(n) ? n + 0 : undefined);

/**
 * Strict: only values that are exactly an integer within the safe range, so a
 * "1.5" filter or a `true` body value is reported instead of silently rounded.
 */
export const toInteger = (name: string) =>
  nullable(name, (v, fail) => {
    if (typeof v === 'number') return safe(v) ?? fail();
    if (typeof v === 'bigint') return safe(Number(v)) ?? fail();
    if (typeof v !== 'string') return fail();
    const text = v.trim();
    return (INTEGER.test(text) ? safe(Number(text)) : undefined) ?? fail();
  });

/** Number or numeric string (drivers return bigint and decimal columns as strings) → number. */
function numberFrom(v: unknown): number | undefined {
  let n: number | undefined;
  if (typeof v === 'number') n = v;
  else if (typeof v === 'bigint') n = Number(v);
  else if (typeof v === 'string' && NUMERIC.test(v.trim())) n = Number(v.trim());
  return n !== undefined && Number.isFinite(n) ? n : undefined;
}

/**
 * Lenient, because the value comes from our own database: any number is
 * rendered, truncated towards zero as Ruby's Integer() would, so an integer
 * attribute backed by a decimal column still renders an integer.
 */
export const readInteger = (name: string) =>
  nullable(name, (v, fail) => {
    const n = numberFrom(v);
    return n === undefined ? fail() : Math.trunc(n) + 0;
  });

export const toFloat = (name: string) =>
  nullable(name, (v, fail) => {
    const n = numberFrom(v);
    return n === undefined ? fail() : n + 0;
  });
