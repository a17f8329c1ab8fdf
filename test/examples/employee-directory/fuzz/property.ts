import fc from 'fast-check';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ANSWER_WITHIN_MS, type FuzzRequest, type FuzzResponse, type FuzzServer } from './fuzz-server.ts';
import { prototypePollution, shorten, violation } from './invariants.ts';

/** The default seed: every CI run sends the same requests unless MURAL_FUZZ_SEED says otherwise. */
export const DEFAULT_SEED = 20261123;
/** Requests per database, across every family; MURAL_FUZZ_RUNS asks for more. */
export const DEFAULT_REQUESTS = 5000;
/** Requests in flight at once: concurrency is part of what is tested, and it keeps wall time down. */
export const CONCURRENCY = 4;
/** Requests per ava test, so no test runs long enough to hit ava's timeout. */
export const CHUNK = 500;

export interface FuzzSettings {
  seed: number;
  requests: number;
}

export function fuzzSettings(): FuzzSettings {
  const number = (name: string, fallback: number) => {
    const raw = process.env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
    return value;
  };
  return { seed: number('MURAL_FUZZ_SEED', DEFAULT_SEED), requests: number('MURAL_FUZZ_RUNS', DEFAULT_REQUESTS) };
}

/** `total` requests as chunks of at most CHUNK, each a whole number of batches. */
export function chunks(total: number): number[] {
  const batches = Math.ceil(total / CONCURRENCY);
  const perChunk = CHUNK / CONCURRENCY;
  return Array.from({ length: Math.ceil(batches / perChunk) }, (_, i) => Math.min(perChunk, batches - i * perChunk) * CONCURRENCY);
}

async function answer(server: FuzzServer, request: FuzzRequest): Promise<FuzzResponse> {
  try {
    return await server.send(request);
  } catch (error) {
    const name = (error as Error).name;
    const what = name === 'TimeoutError' ? `no answer within ${ANSWER_WITHIN_MS / 1000} s` : `a broken connection (${(error as Error).message}: ${String((error as { cause?: unknown }).cause)})`;
    throw new Error(`${request.method} ${shorten(request.path)} got ${what}`);
  }
}

/**
 * After every batch the server must still do ordinary work: a read, a create
 * and a delete. A request that poisoned shared state (the prototype chain, a
 * connection, a lock) fails here even when its own answer looked right.
 */
async function canary(server: FuzzServer): Promise<void> {
  const expect = (response: FuzzResponse, status: number, what: string) => {
    if (response.status !== status) throw new Error(`canary ${what} answered ${response.status} instead of ${status}: ${shorten(response.text, 600)}`);
    return JSON.parse(response.text) as { data?: { id?: string } };
  };
  expect(await answer(server, { method: 'GET', path: '/api/v1/employees?page[size]=2&include=positions&filter[age][gte]=0' }), 200, 'GET /api/v1/employees');
  const created = expect(
    await answer(server, { method: 'POST', path: '/api/v1/departments', body: JSON.stringify({ data: { type: 'departments', attributes: { name: 'Canary' } } }) }),
    201,
    'POST /api/v1/departments',
  );
  expect(await answer(server, { method: 'DELETE', path: `/api/v1/departments/${created.data?.id}` }), 200, 'DELETE the canary department');
}

/**
 * The property: a batch of generated requests sent together all get a proper
 * JSON:API answer (and meet the family's `invariant`), the prototypes are
 * untouched, and the server still works.
 * fast-check shrinks a failing batch to the smallest requests that still fail.
 */
export async function fuzz(
  server: FuzzServer, request: fc.Arbitrary<FuzzRequest>, requests: number, seed: number,
  invariant?: (request: FuzzRequest, response: FuzzResponse) => Promise<string | undefined>,
  prepare: (request: FuzzRequest) => FuzzRequest = (r) => r,
): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  const property = fc.asyncProperty(fc.array(request, { minLength: CONCURRENCY, maxLength: CONCURRENCY }), async (generated) => {
    const batch = generated.map(prepare);
    const responses = await Promise.all(batch.map((r) => answer(server, r)));
    for (const r of responses) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    // first: a polluted prototype makes every other check misleading
    const polluted = prototypePollution();
    if (polluted) throw new Error(`prototype pollution by one of the batch: ${polluted}`);
    const problems = batch.map((r, i) => violation(r, responses[i]!)).filter((p) => p !== undefined);
    if (problems.length > 0) throw new Error(problems.join('\n'));
    for (const [i, r] of batch.entries()) {
      const broken = await invariant?.(r, responses[i]!);
      if (broken) throw new Error(`${r.method} ${shorten(r.path)} ${broken}; body: ${shorten(r.body ?? '', 600)}`);
    }
    await canary(server);
  });
  await fc.assert(property, { seed, numRuns: requests / CONCURRENCY, includeErrorInReport: true });
  return statuses;
}

const collectGarbage: () => void = (() => {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/** V8 heap in use after a full collection, in bytes. */
export function heapAfterCollection(): number {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().heapUsed;
}
