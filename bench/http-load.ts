import autocannon from 'autocannon';
import type { Express } from 'express';
import type { AddressInfo } from 'node:net';

export interface LoadResult {
  requestsPerSecond: number;
  p99: number;
}

/** Serves `app` on loopback and loads one path with autocannon for `seconds`. */
export async function loadTest(app: Express, path: string, connections: number, seconds: number): Promise<LoadResult> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const result = await autocannon({ url: `http://127.0.0.1:${port}${path}`, connections, duration: seconds });
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${path}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
    return { requestsPerSecond: result.requests.average, p99: result.latency.p99 };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

/**
 * Loads each server in turn, round after round, in alternating order (ABC,
 * CBA, …), 2 s each, so that machine noise falls on all of them alike (as
 * `alternate` in measure.ts does in-process); every round's req/s and p99.
 */
export async function alternateLoad(servers: Record<string, Express>, path: string, connections: number, rounds: number) {
  const runs: Record<string, { rps: number[]; p99: number[] }> = Object.fromEntries(Object.keys(servers).map((name) => [name, { rps: [], p99: [] }]));
  for (let round = 0; round < rounds; round++) {
    const names = round % 2 === 0 ? Object.keys(servers) : Object.keys(servers).reverse();
    for (const name of names) {
      const result = await loadTest(servers[name]!, path, connections, 2);
      runs[name]!.rps.push(result.requestsPerSecond);
      runs[name]!.p99.push(result.p99);
    }
  }
  return runs;
}
