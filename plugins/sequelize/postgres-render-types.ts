import type { SequelizeInternals } from './driver-access.ts';

/** What pg asks of a query's `types`: a parser per column type. */
export interface PgTypes {
  getTypeParser(oid: number, format?: string): (text: string) => unknown;
}

/** PostgreSQL's type oid for `timestamp with time zone`, Sequelize's `DATE`. */
const TIMESTAMPTZ = 1184;

/** PostgreSQL's ISO output of a UTC timestamptz (Sequelize's sessions default to UTC): `2020-01-02 03:04:05.123456+00`. */
const UTC_TEXT = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00$/;

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

/** `2020-01-02 03:04:05.123456+00` → `2020-01-02T03:04:05.123Z`; undefined for any other form. */
export function isoFromUtcText(text: string): string | undefined {
  const match = UTC_TEXT.exec(text);
  if (!match) return undefined;
  // joined rather than concatenated: a flat string, which the renderer's check of the form reads without flattening
  // a concatenation first (a copy per value, about a third of this path's time on a page of 100)
  return [match[1], 'T', match[2], '.', `${match[3] ?? ''}000`.slice(0, 3), 'Z'].join('');
}
