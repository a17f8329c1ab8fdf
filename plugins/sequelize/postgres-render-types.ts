import type { SequelizeInternals } from './driver-access.ts';

/** What pg asks of a query's `types`: a parser per column type. */
export interface PgTypes {
  getTypeParser(oid: number, format?: string): (text: string) => unknown;
}

/** PostgreSQL's type oid for `timestamp with time zone`, Sequelize's `DATE`. */
const TIMESTAMPTZ = 1184;

const typesBySequelize = new WeakMap<object, PgTypes>();

/**
 * The parsers for a PostgreSQL SELECT whose rows only Mural reads (plain
 * rows for the renderer, a count): Sequelize's own, except that a UTC
 * timestamptz becomes the ISO 8601 text the renderer would write,
 * `2020-01-02T03:04:05.123Z`, rather than a Date. pg parsing the text into a Date and the renderer formatting it
 * back was about a tenth of an include request's CPU. Milliseconds are
 * truncated as a Date truncates them. Any other form (another session time
 * zone, BC, infinity, years past 9999) keeps Sequelize's parser.
 */
export function plainRowTypes(internals: SequelizeInternals): PgTypes {
  const manager = internals.connectionManager as unknown as PgTypes;
  let types = typesBySequelize.get(manager);
  if (!types) {
    const parse = (oid: number, format?: string) => manager.getTypeParser(oid, format);
    const isoText = (text: string) => isoFromUtcText(text) ?? parse(TIMESTAMPTZ)(text);
    types = { getTypeParser: (oid, format) => (oid === TIMESTAMPTZ && format !== 'binary' ? isoText : parse(oid, format)) };
    typesBySequelize.set(manager, types);
  }
  return types;
}

/** `2020-01-02 03:04:05`, then nothing or `.` and one to six digits, then `+00`: PostgreSQL's ISO output of a UTC timestamptz (Sequelize's sessions default to UTC). */
const UTC_TEXT = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{1,6})?\+00$/;
const [DASH, COLON, DOT, ZERO, T, Z] = ['-', ':', '.', '0', 'T', 'Z'].map((c) => c.charCodeAt(0)) as [number, number, number, number, number, number];

/**
 * `2020-01-02 03:04:05.123456+00` → `2020-01-02T03:04:05.123Z`; undefined for
 * any other form. Checked by one regular expression, then written character
 * by character: the answer is one flat string, made at once. A match's
 * substrings joined (or concatenated, which the renderer's check of the form
 * then has to flatten) cost three times as much, and so did checking each
 * character through small closures; this runs for every timestamp of every
 * plain row.
 */
export function isoFromUtcText(text: string): string | undefined {
  if (!UTC_TEXT.test(text)) return undefined;
  // the fraction's digits are at 20 up to the `+00`; missing ones are zeros
  const length = text.length;
  const tenths = length > 23 ? text.charCodeAt(20) : ZERO;
  const hundredths = length > 24 ? text.charCodeAt(21) : ZERO;
  const thousandths = length > 25 ? text.charCodeAt(22) : ZERO;
  return String.fromCharCode(
    text.charCodeAt(0), text.charCodeAt(1), text.charCodeAt(2), text.charCodeAt(3), DASH, text.charCodeAt(5), text.charCodeAt(6), DASH,
    text.charCodeAt(8), text.charCodeAt(9), T, text.charCodeAt(11), text.charCodeAt(12), COLON, text.charCodeAt(14), text.charCodeAt(15), COLON,
    text.charCodeAt(17), text.charCodeAt(18), DOT, tenths, hundredths, thousandths, Z,
  );
}
