import type { FuzzRequest } from './fuzz-server.ts';

type Database = 'sqlite' | 'postgres' | 'mysql';

/**
 * Requests that hit a bug whose fix is under way elsewhere, kept out of the
 * generated requests until it is merged so the fuzzer can look for other
 * failures meanwhile; each has a `failing` regression test in
 * regressions.test.ts. Empty: every failure found so far is fixed. An entry
 * looks like
 *
 *   { bug: 'a NUL byte in a string filter is a 500 on SQLite',
 *     matches: (r, db) => db === 'sqlite' && decodeURIComponent(r.path).includes('\u0000') }
 *
 * and goes once its fix is in: the fuzzer must then pass with it generated again.
 */
export const KNOWN_BUGS: ReadonlyArray<{ bug: string; matches(request: FuzzRequest, db: Database): boolean }> = [];

export function knownBug(request: FuzzRequest, db: Database): string | undefined {
  return KNOWN_BUGS.find((k) => k.matches(request, db))?.bug;
}
