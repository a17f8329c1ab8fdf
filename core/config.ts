/** Process-wide settings, as opposed to per-Resource ones. */
export interface MuralConfig {
  /** Load sibling sideloads concurrently. */
  concurrency: boolean;
  /** At most this many sideload queries of one request in flight, so the connection pool is never exhausted. */
  maxConcurrentSideloads: number;
  /**
   * Milliseconds the database work of one request (a read with its
   * sideloads, or a write's transaction) may take before its statement is
   * cancelled and the request answers 503 `database_timeout`. 0: no limit.
   */
  databaseTimeout: number;
}

export const muralConfig: MuralConfig = { concurrency: true, maxConcurrentSideloads: 4, databaseTimeout: 10_000 };

export function configure(changes: Partial<MuralConfig>): MuralConfig {
  return Object.assign(muralConfig, changes);
}
