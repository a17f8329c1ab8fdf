import test from 'ava';
import express from 'express';
import { muralRouter, type MuralRouterOptions } from '../../../plugins/express/index.ts';
import { MAX_TIMED_OPERATIONS } from '../../../plugins/express/server-timing.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, type Directory } from '../../support/directory.ts';
import { serve, type HttpClient } from '../../support/http.ts';

const ATOMIC = 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"';

/** One metric of a Server-Timing header: its name, duration and description. */
function metrics(header: string | null): Array<{ name: string; dur: number; desc: string }> {
  if (header === null) return [];
  return [...header.matchAll(/([\w-]+);dur=([\d.]+);desc="((?:[^"\\]|\\.)*)"(?:, |$)/g)].map(([, name, dur, desc]) => ({ name: name!, dur: Number(dur), desc: desc! }));
}

/**
 * `muralRouter({ serverTiming })`: a Server-Timing header listing each
 * database operation and the whole handling, for the requests the option
 * turns it on for, on success and on error alike.
 */
for (const db of testDatabases('server_timing')) {
  let dir: Directory;
  const clients: HttpClient[] = [];
  const app = async (options: Partial<MuralRouterOptions>) => {
    const client = await serve(express().use(muralRouter({ resources: Object.values(dir.resources), context: (req) => ({ role: req.header('X-Role') }), development: false, ...options })));
    clients.push(client);
    return client;
  };
  test.before(async () => {
    dir = await openDirectory(db, 'server_timing', 12);
  });
  test.after.always(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await dir?.sequelize.close();
  });

  test(`${db.name}: each database operation, in the order it finished, then the total`, async (t) => {
    const client = await app({ serverTiming: true });
    const response = await client.get('/api/v1/employees?include=positions.department&page[size]=3&sort=id');
    t.is(response.status, 200);
    const listed = metrics(response.headers.get('server-timing'));
    const total = listed.at(-1)!;
    t.like(total, { name: 'total', desc: 'Mural' });
    const operations = listed.slice(0, -1);
    t.true(operations.every((m) => m.name === 'db' && m.dur <= total.dur));
    const descriptions = operations.map((m) => m.desc);
    t.true(descriptions.includes('employees resolve, 3 records'), descriptions.join(' | '));
    t.true(descriptions.some((d) => /^positions resolve, \d+ records?$/.test(d)));
    t.true(descriptions.some((d) => /^departments resolve, \d+ records?$/.test(d)));
    t.true(descriptions.includes('employees count'), 'the count behind the pagination links');
  });

  test(`${db.name}: off by default outside development, and decided per request by a function`, async (t) => {
    const plain = await app({});
    t.is((await plain.get('/api/v1/teams')).headers.get('server-timing'), null);
    const development = await app({ development: true });
    t.not((await development.get('/api/v1/teams')).headers.get('server-timing'), null, 'development turns it on');
    const chosen = await app({ serverTiming: (req) => req.header('X-Timing') === 'yes' });
    t.is((await chosen.get('/api/v1/teams')).headers.get('server-timing'), null);
    const timed = metrics((await chosen.get('/api/v1/teams', { 'X-Timing': 'yes' })).headers.get('server-timing'));
    // the count behind the pagination links runs beside the page on a server database, and may finish first
    t.deepEqual(timed.map((m) => `${m.name} ${m.desc}`).filter((m) => m !== 'db teams count'), ['db teams resolve, 20 records', 'total Mural']);
  });

  // Express 5 (these tests) would catch the rejection itself; on Express 4 it would end the process (packed-tarball.test.ts)
  test(`${db.name}: a serverTiming function that throws fails its request with a 500, never the process`, async (t) => {
    const client = await app({
      operations: true,
      serverTiming: (req) => {
        if (req.header('X-Break') === 'yes') throw new Error('the application\'s own bug');
        return false;
      },
    });
    const broken = await client.get('/api/v1/teams', { 'X-Break': 'yes' });
    t.is(broken.status, 500);
    t.is((broken.body as { errors: Array<{ status: string }> }).errors[0]!.status, '500');
    const atomic = await client.request('POST', '/api/v1/operations', { 'atomic:operations': [{ op: 'add', data: { type: 'teams', attributes: { name: 'Never' } } }] }, { 'content-type': ATOMIC, 'X-Break': 'yes' });
    t.is(atomic.status, 500);
    t.is(await dir.models.Team.count({ where: { name: 'Never' } }), 0);
    t.is((await client.get('/api/v1/teams')).status, 200, 'the server goes on serving');
  });

  test(`${db.name}: an error answer carries it too, and a write lists its saves and transaction`, async (t) => {
    const client = await app({ serverTiming: true, operations: true });
    const missing = await client.get('/api/v1/employees/999999');
    t.is(missing.status, 404);
    t.deepEqual(metrics(missing.headers.get('server-timing')).map((m) => m.desc), ['employees resolve, 0 records', 'Mural']);
    const created = await client.request('POST', '/api/v1/departments', { data: { type: 'departments', attributes: { name: 'Timing' } } });
    t.is(created.status, 201);
    const descriptions = metrics(created.headers.get('server-timing')).map((m) => m.desc);
    t.deepEqual(descriptions.filter((d) => !d.includes('resolve') && !d.includes('find')), ['departments save', 'departments transaction', 'Mural']);
    const operations = await client.request('POST', '/api/v1/operations', { 'atomic:operations': [{ op: 'add', data: { type: 'teams', attributes: { name: 'Timed' } } }] }, { 'content-type': ATOMIC });
    t.is(operations.status, 200);
    t.true(metrics(operations.headers.get('server-timing')).some((m) => m.desc === 'teams save'));
  });

  test(`${db.name}: past ${MAX_TIMED_OPERATIONS} operations, the rest are summed into one entry`, async (t) => {
    const client = await app({ serverTiming: true, operations: true });
    const adds = Array.from({ length: MAX_TIMED_OPERATIONS + 5 }, (_, i) => ({ op: 'add', data: { type: 'teams', attributes: { name: `Many ${i}` } } }));
    const response = await client.request('POST', '/api/v1/operations', { 'atomic:operations': adds }, { 'content-type': ATOMIC });
    t.is(response.status, 200);
    const listed = metrics(response.headers.get('server-timing'));
    t.is(listed.length, MAX_TIMED_OPERATIONS + 2, 'each of the first ones, the rest, the total');
    t.true(listed.slice(0, MAX_TIMED_OPERATIONS).every((m) => m.name === 'db' && /^teams (save|resolve|find|transaction)/.test(m.desc)));
    const rest = listed[MAX_TIMED_OPERATIONS]!;
    // 35 saves and the transaction at least, beyond the first 30 listed
    t.true(Number(/^(\d+) more operations$/.exec(rest.desc)?.[1]) >= 6, rest.desc);
    t.is(listed.at(-1)!.name, 'total');
  });
}
