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
