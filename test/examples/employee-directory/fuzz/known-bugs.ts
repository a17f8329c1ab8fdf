import type { FuzzRequest } from './fuzz-server.ts';
import { PROTOTYPE_KEYS } from './noise.ts';

type Database = 'sqlite' | 'postgres' | 'mysql';

/**
 * TEMPORARY. Requests that hit bugs already being fixed elsewhere, kept out of
 * the generated requests until the fix is merged, so the fuzzer can look for
 * other failures meanwhile. Each has a named regression test in
 * regressions.test.ts (marked `failing` until then). Remove an entry once its
 * fix is in: the fuzzer must then pass with it generated again. The list is
 * meant to end up empty.
 */
export const KNOWN_BUGS: ReadonlyArray<{ bug: string; matches(request: FuzzRequest, db: Database): boolean }> = [
  {
    bug: 'the query-string parser writes through __proto__ (filter[age][__proto__]=1 pollutes Object.prototype); '
      + 'a list parameter given as an object with an own toString (sort[toString]=asc, include[toString]=x, page[size][toString]=1…) is a 500',
    matches: (r) => queryKeys(r).some((key) => PROTOTYPE_KEYS.some((p) => key.includes(p))),
  },
  {
    bug: 'a NUL byte in a string filter, or in an id, is a 500 on SQLite',
    matches: (r, db) => db === 'sqlite' && (queryValues(r).some((value) => value.includes('\u0000')) || decoded(memberOf(r) ?? '').includes('\u0000')),
  },
  {
    bug: 'PATCH or DELETE with an id that is not an integer, or beyond INTEGER, is a 500 on PostgreSQL',
    matches: (r, db) => db === 'postgres' && (r.method === 'PATCH' || r.method === 'DELETE') && !/^\d{1,9}$/.test(memberOf(r) ?? ''),
  },
  {
    bug: 'a malformed percent-encoding in the path (GET /api/v1/employees/%FF) gets Express\'s HTML error page',
    matches: (r) => !decodes(r.path.split('?')[0]!),
  },
  {
    bug: 'a filter value over 50,000 characters used as a LIKE pattern is a 500 on SQLite (LIKE or GLOB pattern too complex): for the limits work',
    matches: (r, db) => db === 'sqlite' && [...query(r)].some(([key, value]) => key.startsWith('filter') && value.length > 25_000),
  },
];

export function knownBug(request: FuzzRequest, db: Database): string | undefined {
  return KNOWN_BUGS.find((k) => k.matches(request, db))?.bug;
}

function query(request: FuzzRequest): URLSearchParams {
  return new URLSearchParams(request.path.split('?').slice(1).join('?'));
}

function queryKeys(request: FuzzRequest): string[] {
  return [...query(request).keys()];
}

function queryValues(request: FuzzRequest): string[] {
  return [...query(request).values()];
}

function memberOf(request: FuzzRequest): string | undefined {
  return /^\/api\/v1\/[^/?]+\/([^?]*)/.exec(request.path)?.[1];
}

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

function decoded(text: string): string {
  return decodes(text) ? decodeURIComponent(text) : text;
}

/**
 * TEMPORARY. Concurrent write transactions on SQLite fail ("cannot rollback -
 * no transaction is active", 500s) until the SQLite write queue is merged;
 * meanwhile write batches go to SQLite one request after another.
 */
export const SEQUENTIAL_WRITES_ON_SQLITE = true;
