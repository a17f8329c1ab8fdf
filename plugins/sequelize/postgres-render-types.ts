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
const SHORTEST = 22;
const LONGEST = 29;
const [DASH, SPACE, COLON, DOT, PLUS, ZERO, T, Z] = ['-', ' ', ':', '.', '+', '0', 'T', 'Z'].map((c) => c.charCodeAt(0)) as [number, number, number, number, number, number, number, number];
/** Where `YYYY-MM-DD HH:MM:SS` has a digit. */
const DIGITS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18];

/**
 * `2020-01-02 03:04:05.123456+00` → `2020-01-02T03:04:05.123Z`; undefined for
 * any other form. Read and written character by character: the answer is one
 * flat string, made at once. A match's substrings joined (or concatenated,
 * which the renderer's check of the form then has to flatten) cost three
 * times as much, for every timestamp of every plain row.
 */
export function isoFromUtcText(text: string): string | undefined {
  const length = text.length;
  if (length < SHORTEST || length > LONGEST || !utcTextForm(text, length)) return undefined;
  const at = (i: number) => text.charCodeAt(i);
  const fraction = (i: number) => (20 + i < length - 3 ? at(20 + i) : ZERO);
  return String.fromCharCode(
    at(0), at(1), at(2), at(3), DASH, at(5), at(6), DASH, at(8), at(9), T,
    at(11), at(12), COLON, at(14), at(15), COLON, at(17), at(18), DOT, fraction(0), fraction(1), fraction(2), Z,
  );
}

function utcTextForm(text: string, length: number): boolean {
  const at = (i: number) => text.charCodeAt(i);
  const digit = (i: number) => at(i) >= ZERO && at(i) <= ZERO + 9;
  if (at(4) !== DASH || at(7) !== DASH || at(10) !== SPACE || at(13) !== COLON || at(16) !== COLON) return false;
  if (at(length - 3) !== PLUS || at(length - 2) !== ZERO || at(length - 1) !== ZERO || !DIGITS.every(digit)) return false;
  if (length === SHORTEST) return true;
  if (at(19) !== DOT || length === SHORTEST + 1) return false;
  for (let i = 20; i < length - 3; i++) if (!digit(i)) return false;
  return true;
}
