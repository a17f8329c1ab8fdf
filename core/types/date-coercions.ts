import { nullable, type Fail } from './nullable.ts';

const DATE_PREFIX = /^(\d{4})-(\d{2})-(\d{2})/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!;
  return day <= days;
}

/** The `YYYY-MM-DD` a string starts with, when that is a real calendar date. */
export function datePrefix(text: string): string | undefined {
  const match = DATE_PREFIX.exec(text);
  if (!match) return undefined;
  return isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3])) ? match[0] : undefined;
}

/**
 * UTC parts, because a date column comes back from drivers as UTC midnight;
 * local parts would move it a day in any zone west of Greenwich.
 */
function fromJsDate(date: Date, fail: Fail): string {
  const year = date.getUTCFullYear();
  if (Number.isNaN(year) || year < 0 || year > 9999) return fail();
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(year, 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/**
 * Query strings and bodies: exactly a real `YYYY-MM-DD` (so `2019-01` and
 * `2019-02-30` are refused), or a JS Date from an in-process caller. Dates
 * stay strings so no time zone can shift them.
 */
export const toDate = (name: string) =>
  nullable(name, (v, fail) => {
    if (v instanceof Date) return fromJsDate(v, fail);
    if (typeof v !== 'string') return fail();
    const text = v.trim();
    const date = datePrefix(text);
    return date !== undefined && date.length === text.length ? date : fail();
  });

/** Database values: a Date, or a string whose first ten characters are a date (time part dropped). */
export const readDate = (name: string) =>
  nullable(name, (v, fail) => {
    if (v instanceof Date) return fromJsDate(v, fail);
    if (typeof v !== 'string') return fail();
    return datePrefix(v.trim()) ?? fail();
  });
