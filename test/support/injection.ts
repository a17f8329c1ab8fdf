/**
 * Shared by the injection suites: classic payloads, what must never reach a
 * client, and literal comparisons to compute the rows a filter should select.
 */

export const PAYLOADS = [
  "' OR 1=1 --",
  "' OR '1'='1",
  '"; DROP TABLE employees; --',
  "'); DROP TABLE employees; --",
  ') OR (1=1',
  '%',
  '_',
  '%%',
  'A%',
  '_da',
  '!',
  '!%',
  '\\',
  "\\'",
  "\\' OR 1=1 #",
  '/* comment */Ada',
  'Ada--',
  '`employees`',
  "\\'; DROP TABLE `employees`; #",
  '\u0410da', // Cyrillic А: a homoglyph of Ada
  'Ada\u200b', // zero-width space
  'a'.repeat(4000),
  '1e309',
  '-0',
  '0x10',
  '1; SELECT 1',
  '{{Ada,Grace}}',
] as const;

/** What no response body may contain: SQL, driver error text, stack frames. */
export const LEAK = /\bSELECT\b[^"]*\bFROM\b|SQLITE_|\bER_[A-Z_]+|syntax error|SequelizeDatabaseError|sqlMessage|\bat [^ ]+\.(ts|js):\d+/i;

export type Compare = (row: unknown, value: unknown) => boolean;

export const lower = (v: unknown) => String(v).toLowerCase();
export const TEXT: Record<string, Compare> = {
  eq: (r, v) => lower(r) === lower(v),
  eql: (r, v) => r === v,
  prefix: (r, v) => lower(r).startsWith(lower(v)),
  suffix: (r, v) => lower(r).endsWith(lower(v)),
  match: (r, v) => lower(r).includes(lower(v)),
};
/** Numbers, decimals in strings, dates and date strings, as comparable numbers. */
export const num = (v: unknown): number => {
  if (v instanceof Date) return v.getTime();
  if (typeof v === 'string' && /^\d{4}-\d\d-\d\d/.test(v)) return Date.parse(v);
  return Number(v);
};
export const ORDERED: Record<string, Compare> = {
  eq: (r, v) => num(r) === num(v),
  gt: (r, v) => num(r) > num(v),
  gte: (r, v) => num(r) >= num(v),
  lt: (r, v) => num(r) < num(v),
  lte: (r, v) => num(r) <= num(v),
};

