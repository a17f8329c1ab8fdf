/** Process-wide settings, as opposed to per-Resource ones. */
export interface MuralConfig {
  /** Load sibling sideloads concurrently. */
  concurrency: boolean;
  /** At most this many sideload queries of one request in flight, so the connection pool is never exhausted. */
  maxConcurrentSideloads: number;
  /**
   * Nested to-one includes (`positions.department`) read beside their
   * parents, through the parents' query as a subquery, instead of after
   * them: one round trip fewer per level. `auto`: where that has been
   * faster, timed both ways per relationship (a database across a network,
   * rather than one sharing the machine's cores); `always` and `never`
   * decide for every request. See core/sideload/prefetch-choice.ts.
   */
  nestedPrefetch: 'auto' | 'always' | 'never';
  /** Query string parameters per request; more is a 400 rather than work proportional to the URL. */
  maxQueryParameters: number;
  /** Brackets after a parameter's name (`filter[positions][title][eq]` has 3). */
  maxQueryDepth: number;
  /** Nesting of a write's JSON document (objects and arrays). */
  maxDocumentDepth: number;
  /** Records one write may touch: the primary record and everything sideposted with it. */
  maxWriteRecords: number;
  /** Operations one atomic operations request may hold; more is a 400 `too_many_operations`. */
  maxOperations: number;
  /**
   * Milliseconds the database work of one request (a read with its
   * sideloads, or a write's transaction) may take before its statement is
   * cancelled and the request answers 503 `database_timeout`. 0: no limit.
   */
  databaseTimeout: number;
  /**
   * The key sealing pagination cursors (AES-256-GCM), so that a client can
   * neither read nor alter one: a tampered cursor is a 400. Unset: a random key per process, and cursors do not survive a
   * restart or reach another instance; set it (or MURAL_CURSOR_SECRET) where
   * several processes serve one API.
   */
  cursorSecret?: string;
}

/** The process-wide settings in force; change them with `configure`. */
export const muralConfig: MuralConfig = {
  concurrency: true,
  maxConcurrentSideloads: 4,
  nestedPrefetch: 'auto',
  maxQueryParameters: 1000,
  maxQueryDepth: 5,
  maxDocumentDepth: 32,
  maxWriteRecords: 1000,
  maxOperations: 100,
  databaseTimeout: 10_000,
  cursorSecret: process.env.MURAL_CURSOR_SECRET || undefined,
};

/**
 * Changes the process-wide settings (see `MuralConfig` for each, and its default) and returns them
 * all: `configure({ databaseTimeout: 5000, cursorSecret: process.env.CURSOR_SECRET })`.
 */
export function configure(changes: Partial<MuralConfig>): MuralConfig {
  return Object.assign(muralConfig, changes);
}
