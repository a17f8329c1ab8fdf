import { performance } from 'node:perf_hooks';
import type { LatencyHistogram } from './latency-histogram.ts';

export interface Tally {
  requests: number;
  /** By kind (step and status): how many, and the first body seen. A handful of kinds at most. */
  errors: Map<string, { count: number; sample: string }>;
  latency: LatencyHistogram;
}

const JSONAPI = { 'content-type': 'application/vnd.api+json' };
type Doc = { data?: { id: string }; included?: Array<{ id: string; type: string }> };

/**
 * One client's round of what an application does all day: a page with
 * includes, a sideposted create, a show, a PATCH that updates one position
 * and destroys the other, and DELETEs of what it created, so the database
 * stays the same size however long the soak.
 */
export async function soakCycle(baseUrl: string, tag: string, tally: Tally): Promise<void> {
  const call = (step: string, expected: number, method: string, path: string, body?: unknown) =>
    request(tally, step, expected, baseUrl + path, method, body);
  await call('index', 200, 'GET', `/api/v1/employees?include=positions.department,current_position&page[size]=20&page[number]=${1 + (tally.requests % 10)}`);
  const created = await call('create', 201, 'POST', '/api/v1/employees', {
    data: {
      type: 'employees', attributes: { first_name: `Soak ${tag}`, last_name: 'Soak', age: 30 },
      relationships: { positions: { data: ['a', 'b'].map((id) => ({ type: 'positions', 'temp-id': id, method: 'create' })) } },
    },
    included: ['a', 'b'].map((id) => ({ type: 'positions', 'temp-id': id, attributes: { title: `Soaker ${id}`, active: id === 'b' } })),
  });
  const id = created?.data?.id;
  const [kept, dropped] = (created?.included ?? []).map((record) => record.id);
  if (!id || !kept || !dropped) return;
  await call('show', 200, 'GET', `/api/v1/employees/${id}?include=positions`);
  await call('update', 200, 'PATCH', `/api/v1/employees/${id}`, {
    data: {
      type: 'employees', id, attributes: { age: 31 },
      relationships: { positions: { data: [{ type: 'positions', id: kept, method: 'update' }, { type: 'positions', id: dropped, method: 'destroy' }] } },
    },
    included: [{ type: 'positions', id: kept, attributes: { rank: 2 } }],
  });
  await call('destroy', 200, 'DELETE', `/api/v1/positions/${kept}`);
  await call('destroy', 200, 'DELETE', `/api/v1/employees/${id}`);
}

async function request(tally: Tally, step: string, expected: number, url: string, method: string, body?: unknown): Promise<Doc | undefined> {
  const started = performance.now();
  tally.requests++;
  try {
    const response = await fetch(url, {
      method, headers: body ? JSONAPI : {}, body: body ? JSON.stringify(body) : undefined, signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    tally.latency.record(performance.now() - started);
    if (response.status === expected) return JSON.parse(text) as Doc;
    fail(tally, `${step} ${response.status}`, text.slice(0, 200));
  } catch (error) {
    tally.latency.record(performance.now() - started);
    fail(tally, `${step} ${(error as Error).name}`, (error as Error).message);
  }
  return undefined;
}

function fail(tally: Tally, kind: string, sample: string): void {
  const known = tally.errors.get(kind);
  if (known) known.count++;
  else tally.errors.set(kind, { count: 1, sample });
}
