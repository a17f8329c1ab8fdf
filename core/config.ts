/** Process-wide settings, as opposed to per-Resource ones. */
export interface MuralConfig {
  /** Load sibling sideloads concurrently. */
  concurrency: boolean;
  /** At most this many sideload queries of one request in flight, so the connection pool is never exhausted. */
  maxConcurrentSideloads: number;
}

export const muralConfig: MuralConfig = { concurrency: true, maxConcurrentSideloads: 4 };

export function configure(changes: Partial<MuralConfig>): MuralConfig {
  return Object.assign(muralConfig, changes);
}
