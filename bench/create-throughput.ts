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
    // the first requests compile the write path: steady state is what a rate per second means
    await post(port, connections, Math.min(50, creates), () => n++);
    const started = performance.now();
    // autocannon resolves on its next one-second tick after the last answer: the rate is timed to that answer
    let answered = started;
    const result = await post(port, connections, creates, () => n++, () => void (answered = performance.now()));
    const seconds = (answered - started) / 1000;
    return { requestsPerSecond: creates / seconds, p99: result.latency.p99 };
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

/** `amount` sideposted creates over `connections`, each a new graph; a non-2xx answer or an error fails the bench. */
async function post(port: number, connections: number, amount: number, next: () => number, onAnswer?: () => void): Promise<autocannon.Result> {
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const load = autocannon({
      url: `http://127.0.0.1:${port}`,
      connections,
      // a count, not a duration: a request cut off at the end would leave its write running after the database closes
      amount,
      requests: [{
        method: 'POST',
        path: '/api/v1/employees',
        headers: { 'content-type': 'application/vnd.api+json' },
        setupRequest: (request) => ({ ...request, body: JSON.stringify(muralCreatePayload(next())) }),
      }],
    }, (error, finished) => (error ? reject(error) : resolve(finished)));
    if (onAnswer) load.on('response', onAnswer);
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`POST /api/v1/employees: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result;
}
