import { TypeCoercionError } from '../errors/index.ts';
import type { Coercion } from './type-definition.ts';

/*
 * The coercions behind the built-in types. null and undefined pass through as
 * null everywhere: whether null is acceptable is the caller's decision.
 */

export function nullable(typeName: string, coerce: (value: unknown, fail: () => never) => unknown): Coercion {
  return (value) => {
    if (value === null || value === undefined) return null;
    return coerce(value, () => {
      throw new TypeCoercionError(typeName, value);
    });
  };
}

export const toString = (name: string) =>
  nullable(name, (v, fail) => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : fail()));

export const toInteger = (name: string) =>
  nullable(name, (v, fail) => {
    if (typeof v === 'number') return Number.isSafeInteger(v) ? v : fail();
    if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : fail();
    if (typeof v !== 'string' || !/^[+-]?\d+$/.test(v.trim())) return fail();
    const n = Number(v.trim());
    return Number.isSafeInteger(n) ? n : fail();
  });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const toUuid = (name: string) =>
  nullable(name, (v, fail) => (typeof v === 'string' && UUID.test(v.trim()) ? v.trim() : fail()));

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;
/** Decimals stay strings so no precision is lost; `070.50` and 70.5 both become "70.5". */
export const toDecimal = (name: string) =>
  nullable(name, (v, fail) => {
    if (typeof v === 'number' && !Number.isFinite(v)) return fail();
    const text = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : fail();
    if (/e/i.test(text)) return typeof v === 'number' ? normalizeDecimal(v.toFixed(20)) : fail();
    const match = DECIMAL.exec(text);
    if (!match || (match[2] === '' && (match[3] ?? '') === '')) return fail();
    return normalizeDecimal(text);
  });

function normalizeDecimal(text: string): string {
  const [, sign, whole, fraction = ''] = DECIMAL.exec(text)!;
  const integer = whole!.replace(/^0+(?=\d)/, '') || '0';
  const decimals = fraction.replace(/0+$/, '');
  const body = decimals ? `${integer}.${decimals}` : integer;
  return sign === '-' && body !== '0' ? `-${body}` : body;
}

export const toFloat = (name: string) =>
  nullable(name, (v, fail) => {
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
    return Number.isFinite(n) ? n : fail();
  });

const TRUE = new Set(['true', '1', 't']);
const FALSE = new Set(['false', '0', 'f']);
export const toBoolean = (name: string) =>
  nullable(name, (v, fail) => {
    if (typeof v === 'boolean') return v;
    if (v === 1 || v === 0) return v === 1;
    if (typeof v !== 'string') return fail();
    const text = v.trim().toLowerCase();
    return TRUE.has(text) ? true : FALSE.has(text) ? false : fail();
  });

const DATE = /^(\d{4})-(\d{2})-(\d{2})/;
function validDate(text: string): string | undefined {
  const match = DATE.exec(text);
  if (!match) return undefined;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  const ok = date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  return ok ? match[0] : undefined;
}

/** Dates are `YYYY-MM-DD` strings: no time zone can shift them. */
export const toDate = (name: string, strict: boolean) =>
  nullable(name, (v, fail) => {
    if (v instanceof Date) return Number.isNaN(v.getTime()) ? fail() : v.toISOString().slice(0, 10);
    if (typeof v !== 'string') return fail();
    const text = v.trim();
    const date = validDate(text);
    if (!date || (strict && date.length !== text.length)) return fail();
    return date;
  });

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

export const toDateTime = (name: string) =>
  nullable(name, (v, fail) => {
    if (v instanceof Date) return Number.isNaN(v.getTime()) ? fail() : v;
    if (typeof v !== 'string') return fail();
    const text = v.trim();
    if (!ISO_DATETIME.test(text) || !validDate(text)) return fail();
    const date = new Date(normalizeDateTimeText(text));
    return Number.isNaN(date.getTime()) ? fail() : date;
  });

/** '2020-01-02 03:04:05.123 +00:00' (SQLite, MySQL) → '2020-01-02T03:04:05.123+00:00'. */
function normalizeDateTimeText(text: string): string {
  if (text.length === 10) return `${text}T00:00:00Z`;
  let result = text.replace(' ', 'T').replace(/\s+(?=[+-]\d)/, '');
  if (!/(Z|[+-]\d{2}:?\d{2})$/i.test(result)) result += 'Z';
  return result;
}

export const readDateTime = (name: string) => {
  const parse = toDateTime(name);
  return nullable(name, (v) => (parse(v) as Date).toISOString());
};

export const toHash = (name: string, parseStrings: boolean) =>
  nullable(name, (v, fail) => {
    const value = parseStrings && typeof v === 'string' ? parseJson(v, fail) : v;
    return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date) ? value : fail();
  });

export const toArray = (name: string, parseStrings: boolean, wrapSingle: boolean) =>
  nullable(name, (v, fail) => {
    if (Array.isArray(v)) return v;
    if (parseStrings && typeof v === 'string' && v.trim().startsWith('[')) {
      const parsed = parseJson(v, fail);
      return Array.isArray(parsed) ? parsed : fail();
    }
    return wrapSingle ? [v] : fail();
  });

function parseJson(text: string, fail: () => never): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return fail();
  }
}
