import { performance } from 'node:perf_hooks';

export interface Timing {
  name: string;
  /** Median milliseconds per operation. */
  median: number;
  /** Milliseconds per operation in each round, in round order. */
  rounds: number[];
}

/**
 * Runs each contender in turn, round after round, so that warm-up, GC and
 * machine noise fall on all of them alike; reports the median per operation.
 * Each round starts one contender further on: what ran just before shapes
 * a contender's time (on the 2-core bench machine, a lone PostgreSQL
 * request of Mural's ran 5–8% faster after another block of Mural's than
 * after the raw driver's), so no contender always follows the same one.
 */
export async function alternate(contenders: Record<string, () => Promise<unknown>>, rounds: number, perRound: number, warmUpMs = 500): Promise<Record<string, Timing>> {
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(contenders).map((n) => [n, []]));
  // steady state is what throughput means: let the JIT settle on every contender before timing any
  for (const fn of Object.values(contenders)) {
    const until = performance.now() + warmUpMs;
    for (let i = 0; i < 3 || performance.now() < until; i++) await fn();
  }
  const entries = Object.entries(contenders);
  for (let round = 0; round < rounds; round++) {
    for (const [name, fn] of [...entries.slice(round % entries.length), ...entries.slice(0, round % entries.length)]) {
      const start = performance.now();
      for (let i = 0; i < perRound; i++) await fn();
      samples[name]!.push((performance.now() - start) / perRound);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, list]) => [name, { name, median: median(list), rounds: list }]));
}

/**
 * How many times faster `a` is than `b` (b's time over a's, or a's rate over
 * b's), as the median of the ratios of each round: the two ran back to back
 * in every round, so a noisy round moves both, and one bad round cannot
 * decide the result.
 */
export function medianRatio(numerators: readonly number[], denominators: readonly number[]): number {
  return median(numerators.map((value, round) => value / denominators[round]!));
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Heap growth while `fn` holds its result, after a forced GC when available. */
export async function heapUsedBy(fn: () => Promise<unknown>): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const kept = await fn();
  gc?.();
  const after = process.memoryUsage().heapUsed;
  void kept;
  return Math.max(0, after - before);
}

interface SampledNode {
  selfSize: number;
  children: SampledNode[];
}

/**
 * Bytes `fn` allocates per call on the JavaScript heap, garbage included:
 * V8's sampling heap profiler, keeping the samples of objects already
 * collected, over `calls` calls one after another. An estimate (the
 * profiler scales its samples), good to compare contenders in one run.
 */
export async function allocatedPerCall(fn: () => Promise<unknown>, calls = 200): Promise<number> {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  try {
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never);
    for (let i = 0; i < calls; i++) await fn();
    const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: SampledNode } };
    const total = (node: SampledNode): number => node.children.reduce((sum, child) => sum + total(child), node.selfSize);
    return total(profile.head) / calls;
  } finally {
    session.disconnect();
  }
}
