import { nullable, type Fail } from './nullable.ts';

/** Plain decimal notation: `70`, `-70.50`, `5.`, `.5`. */
const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;
const EXPONENT = /^([+-]?)(\d*)(?:\.(\d*))?e([+-]?\d+)$/i;

/**
 * big_decimal values stay strings from end to end, so no float rounding ever
 * touches them, and they are normalized ("070.50" → "70.5", "-0" → "0") so
 * that PostgreSQL ("70.10"), MySQL and SQLite (70.1) render the same value.
 */
export function normalizeDecimal(text: string): string | undefined {
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const [, sign, whole = '', fraction = ''] = match;
  if (whole === '' && fraction === '') return undefined;
  const integer = whole.replace(/^0+(?=\d)/, '') || '0';
  const decimals = fraction.replace(/0+$/, '');
  const body = decimals ? `${integer}.${decimals}` : integer;
  return sign === '-' && body !== '0' ? `-${body}` : body;
}

/** `1.5e-7` → `0.00000015`: moves the point instead of going through a float. */
export function expandExponent(text: string): string | undefined {
  const match = EXPONENT.exec(text);
  if (!match) return undefined;
  const [, sign, whole = '', fraction = '', exponent = '0'] = match;
  if (whole === '' && fraction === '') return undefined;
  const digits = whole + fraction;
  const point = whole.length + Number(exponent);
  if (!Number.isSafeInteger(point) || Math.abs(point) > 1000) return undefined;
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

function decimalFrom(v: unknown, acceptExponent: boolean, fail: Fail): string {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') {
    // String(n) is the shortest exact rendering of the float, in exponent form from 1e21 and below 1e-6.
    return Number.isFinite(v) ? (normalizeDecimal(expandExponent(String(v)) ?? String(v)) ?? fail()) : fail();
  }
  if (typeof v !== 'string') return fail();
  const text = v.trim();
  const plain = acceptExponent ? (expandExponent(text) ?? text) : text;
  return normalizeDecimal(plain) ?? fail();
}

/**
 * Query strings and bodies: numbers and plain decimal strings. Exponent
 * strings ("1e3") are refused because a client writing money that way has
 * almost certainly made a mistake.
 */
export const toDecimal = (name: string) => nullable(name, (v, fail) => decimalFrom(v, false, fail));

/** Database values are trusted more: an exponent string is expanded too. */
export const readDecimal = (name: string) => nullable(name, (v, fail) => decimalFrom(v, true, fail));
