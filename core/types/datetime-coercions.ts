import { datePrefix } from './date-coercions.ts';
import { nullable, type Fail } from './nullable.ts';

/**
 * ISO 8601 with a date part, plus the spellings databases return: a space
 * instead of `T` (SQLite, MySQL), a space before the offset and `+00` offsets
 * (PostgreSQL), microseconds (PostgreSQL, MySQL).
 */
const DATETIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

function offsetOf(text: string | undefined): string | undefined {
  if (text === undefined || text.toUpperCase() === 'Z') return 'Z';
  const digits = text.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 23 || minutes > 59) return undefined;
  return `${text[0]}${digits.slice(0, 2)}:${String(minutes).padStart(2, '0')}`;
}

/**
 * Builds the exact string Date parses reliably rather than trusting the
 * engine's lenient parser. A time without an offset is taken as UTC, so the
 * server's own zone never changes what a query means.
 */
export function parseDateTime(text: string): Date | undefined {
  const match = DATETIME.exec(text);
  if (!match) return undefined;
  const [, date = '', hh = '00', mm = '00', ss = '00', fraction = '', zone] = match;
  if (datePrefix(date) === undefined || Number(hh) > 23 || Number(mm) > 59 || Number(ss) > 59) return undefined;
  const offset = offsetOf(zone);
  if (offset === undefined) return undefined;
  // A JS Date holds milliseconds; finer digits are dropped, not rounded, so a value never moves into the next second.
  const millis = fraction.slice(0, 3).padEnd(3, '0');
  const parsed = new Date(`${date}T${hh}:${mm}:${ss}.${millis}${offset}`);
  return Number.isNaN(parsed.getTime()) ? undefined : parsed;
}

function dateTimeFrom(v: unknown, fail: Fail): Date {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? fail() : v;
  if (typeof v !== 'string') return fail();
  return parseDateTime(v.trim()) ?? fail();
}

/**
 * Query strings and bodies → a JS Date. Numbers are refused: an epoch could
 * be seconds or milliseconds, and guessing wrong is silent.
 */
export const toDateTime = (name: string) => nullable(name, (v, fail) => dateTimeFrom(v, fail));

/** SQLite's UTC text form, `2020-01-02 03:04:05.123 +00:00`, is already ISO 8601 but for two characters. */
const SQLITE_UTC = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} \+00:00$/;

/** The form readDateTime writes, `2020-01-02T03:04:05.123Z`, which an adapter may hand over already (Mural's PostgreSQL plain rows). */
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Database values (a Date, or a string some drivers return) → ISO 8601 in UTC; SQLite's form and the ISO form itself skip the parser. */
export const readDateTime = (name: string) =>
  nullable(name, (v, fail) => {
    if (typeof v !== 'string') return dateTimeFrom(v, fail).toISOString();
    if (ISO_UTC.test(v) && plausible(v)) return v;
    return SQLITE_UTC.test(v) && plausible(v) ? `${v.slice(0, 10)}T${v.slice(11, 23)}Z` : dateTimeFrom(v, fail).toISOString();
  });

/** Cheap range checks on the fixed-position fields (digits, as SQLITE_UTC matched); anything doubtful takes the full parser, which rejects it properly. */
function plausible(v: string): boolean {
  const month = twoDigits(v, 5);
  const day = twoDigits(v, 8);
  return month >= 1 && month <= 12 && day >= 1 && (day <= 28 || day <= daysIn(twoDigits(v, 0) * 100 + twoDigits(v, 2), month)) && twoDigits(v, 11) < 24 && twoDigits(v, 14) < 60 && twoDigits(v, 17) < 60;
}

/** The number two ASCII digits at `at` spell: no substring per field, this runs for every datetime read. */
function twoDigits(v: string, at: number): number {
  return (v.charCodeAt(at) - 48) * 10 + v.charCodeAt(at + 1) - 48;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysIn(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!;
}
