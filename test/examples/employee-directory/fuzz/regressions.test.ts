import test from 'ava';
import { testDatabases } from '../../../support/databases.ts';
import { openDirectory, type Directory } from '../../../support/directory.ts';
import { startFuzzServer, type FuzzRequest, type FuzzServer } from './fuzz-server.ts';
import { misplacedError, prototypePollution, violation } from './invariants.ts';

type Document = { data?: unknown[]; errors?: Array<{ status: string; source?: { parameter?: string; pointer?: string } }> };

/**
 * Failures the fuzzer found, as the concrete request it shrunk to and the
 * answer a client should get, over HTTP. Failures fixed in one source file
 * have their test beside the fix's other tests (test/core/write/request-errors,
 * test/core/read/sorts-pages-stats). A failure the fuzzer finds while its fix
 * is under way elsewhere goes here as `test.serial.failing` (and into
 * known-bugs.ts) until the fix is merged.
 */
for (const db of testDatabases('fuzz_regressions')) {
  let dir: Directory;
  let server: FuzzServer;
  test.before(async () => {
    dir = await openDirectory(db, 'fuzz_regressions', 10);
    server = await startFuzzServer(dir.app);
  });
  test.after.always(async () => {
    await server?.close();
    await dir?.sequelize.close();
  });

  /** The fuzzer's property for one request, then its status among `statuses`. */
  const answer = async (t: { is(a: unknown, b: unknown, m?: string): void; true(a: boolean, m?: string): void; teardown(fn: () => void): void }, request: FuzzRequest, statuses: number[]) => {
    t.teardown(() => void prototypePollution());
    const response = await server.send(request);
    t.is(prototypePollution(), undefined, 'Object.prototype is untouched');
    t.is(violation(request, response), undefined);
    t.true(statuses.includes(response.status), `status ${response.status}, expected ${statuses.join(' or ')}`);
    return JSON.parse(response.text) as Document;
  };

  test.serial(`${db.name}: regression: fuzz seed 20261123 — GET /api/v1/epics?filter[title][eq][__proto__]= is a 400 and leaves Object.prototype alone`, async (t) => {
    const body = await answer(t, { method: 'GET', path: '/api/v1/epics?filter[title][eq][__proto__]=' }, [400]);
    t.is(body.errors?.[0]?.source?.parameter?.startsWith('filter[title]'), true);
  });

  test.serial(`${db.name}: regression: GET /api/v1/employees?sort[__proto__]=x is a 400 and leaves Object.prototype alone`, async (t) => {
    const body = await answer(t, { method: 'GET', path: '/api/v1/employees?sort[__proto__]=x' }, [400]);
    t.is(body.errors?.[0]?.source?.parameter?.startsWith('sort'), true);
  });

  test.serial(`${db.name}: regression: fuzz seed 20261127 — GET /api/v1/bugs?sort[toString]=asc (and every list parameter given an own toString) is a 400`, async (t) => {
    for (const query of ['sort[toString]=asc', 'include[toString]=x', 'fields[employees][toString]=x', 'extra_fields[employees][toString]=x', 'stats[age][toString]=x', 'page[size][toString]=1']) {
      const path = query.startsWith('sort') ? `/api/v1/bugs?${query}` : `/api/v1/employees?${query}`;
      const body = await answer(t, { method: 'GET', path }, [400]);
      t.is(body.errors?.[0]?.source?.parameter?.split('[')[0], query.split('[')[0], path);
    }
  });

  test.serial(`${db.name}: regression: fuzz seed 20261123 — GET /api/v1/employees?filter[first_name]=a%00b is a 400 naming the parameter`, async (t) => {
    for (const [query, parameter] of [['filter[first_name]=a%00b', 'filter[first_name]'], ['filter[first_name][prefix]=%00', 'filter[first_name][prefix]'], ['filter[name]=%00', 'filter[name]']]) {
      const body = await answer(t, { method: 'GET', path: `/api/v1/employees?${query}` }, [400]);
      t.is(body.errors?.[0]?.source?.parameter, parameter, query);
    }
  });

  test.serial(`${db.name}: regression: fuzz seed 20262123 — PATCH /api/v1/milestones/%00 is a 404 (or 400), not a 500`, async (t) => {
    await answer(t, { method: 'PATCH', path: '/api/v1/milestones/%00', body: JSON.stringify({ data: { type: 'milestones', attributes: {} } }) }, [400, 404]);
  });

  test.serial(`${db.name}: regression: fuzz seed 20262123 — PATCH /api/v1/teams/9007199254740993 and DELETE /api/v1/teams/abc are 404s (or 400s), not 500s`, async (t) => {
    const patch = { data: { type: 'teams', id: '9007199254740993', attributes: { name: 'x' } } };
    await answer(t, { method: 'PATCH', path: '/api/v1/teams/9007199254740993', body: JSON.stringify(patch) }, [400, 404]);
    await answer(t, { method: 'DELETE', path: '/api/v1/teams/9223372036854775808' }, [400, 404]);
    await answer(t, { method: 'DELETE', path: '/api/v1/teams/abc' }, [400, 404]);
  });

  test.serial(`${db.name}: regression: fuzz seed 20264124 — PATCH /api/v1/epics/{id}/relationships/milestones {"data":[]} is a 422 pointing into the body, without Sequelize's text`, async (t) => {
    const milestone = await dir.models.Milestone.findOne({ order: [['id', 'ASC']] });
    const request: FuzzRequest = { method: 'PATCH', path: `/api/v1/epics/${milestone!.epic_id}/relationships/milestones`, body: JSON.stringify({ data: [] }) };
    const response = await server.send(request);
    t.is(violation(request, response), undefined);
    t.is(response.status, 422);
    t.is(misplacedError(request, response), undefined);
  });

  test.serial(`${db.name}: regression: GET /api/v1/employees/%FF is a JSON:API 400 or 404, not Express's HTML page`, async (t) => {
    await answer(t, { method: 'GET', path: '/api/v1/employees/%FF' }, [400, 404]);
    await answer(t, { method: 'PATCH', path: '/api/v1/employees/%E2%82', body: '{}' }, [400, 404]);
  });

  test.serial(`${db.name}: regression: fuzz seed 20261127 — GET /api/v1/employees?filter[first_name][prefix]=<100,000 × "a"> is not a 500`, async (t) => {
    const body = await answer(t, { method: 'GET', path: `/api/v1/employees?filter[first_name][prefix]=${'a'.repeat(100_000)}` }, [200, 400, 414]);
    if (body.data) t.deepEqual(body.data, [], 'no first name starts with 100,000 a');
  });
}
