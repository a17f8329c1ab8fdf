import autocannon from 'autocannon';
import type { AddressInfo } from 'node:net';
import type { Fixture } from './fixtures.ts';
import type { LoadResult } from './http-load.ts';
import { muralCreatePayload } from './scenarios.ts';

/**
 * Scenario 10: sideposted creates over HTTP (`POST /api/v1/employees`, an
 * employee with 3 positions and their departments, one transaction each),
 * every request a new graph, on the example app's router. What one process
 * writes per second: the figure the capacity note divides by.
 */
export async function createThroughput(fixture: Fixture, connections: number, creates: number): Promise<LoadResult> {
  const server = fixture.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  let n = 1_000_000;
  try {
    const { port } = server.address() as AddressInfo;
    const started = performance.now();
    const result = await autocannon({
      url: `http://127.0.0.1:${port}`,
      connections,
      // a count, not a duration: a request cut off at the end would leave its write running after the database closes
      amount: creates,
      requests: [{
        method: 'POST',
        path: '/api/v1/employees',
        headers: { 'content-type': 'application/vnd.api+json' },
        setupRequest: (request) => ({ ...request, body: JSON.stringify(muralCreatePayload(n++)) }),
      }],
    });
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`POST /api/v1/employees: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
    const seconds = (performance.now() - started) / 1000;
    return { requestsPerSecond: creates / seconds, p99: result.latency.p99 };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}
