import test from 'ava';
import { testDatabases } from '../../../support/databases.ts';
import { directoryServer } from '../../../support/directory-server.ts';
import { tableCounts } from '../../../support/directory.ts';
import type { HttpResponse } from '../../../support/http.ts';

type ErrorDoc = { errors: Array<{ status: string; code: string; source?: { parameter?: string; pointer?: string } }> };

/**
 * The hostile requests issue #12 reported against the example API, each now
 * answered with a JSON:API error and leaving the server as it was.
 */
for (const db of testDatabases('hardening_findings')) {
  const { dir, client } = directoryServer(db, 'hardening_findings', 10);

  const errorOf = (response: HttpResponse) => (response.body as ErrorDoc).errors[0]!;
  const isJsonApi = (response: HttpResponse) => response.contentType?.startsWith('application/vnd.api+json') ?? false;
  const patchAge = (id: string, age: unknown) =>
    client.request('PATCH', `/api/v1/employees/${id}`, { data: { type: 'employees', id, attributes: { age } } });

  /** Writes and single reads on every Resource still work: nothing leaked into Object.prototype. */
  const assertNotPoisoned = async (t: import('ava').ExecutionContext) => {
    t.is(({} as Record<string, unknown>).eq, undefined);
    t.is(({} as { toString: unknown }).toString, Object.prototype.toString);
    t.is((await patchAge('1', 40)).status, 200);
    const created = await client.request('POST', '/api/v1/departments', { data: { type: 'departments', attributes: { name: 'Canary' } } });
    t.is(created.status, 201);
    t.is((await client.get('/api/v1/employees/1?include=positions')).status, 200);
  };

  test.serial(`${db.name}: finding 1 — prototype keys in the query string are unknown names, and poison nothing`, async (t) => {
    const cases: Array<[string, string, string]> = [
      ['/api/v1/employees?filter[age][__proto__]=1', 'unknown_operator', 'filter[age][__proto__]'],
      ['/api/v1/employees?filter[__proto__][toString]=1', 'unknown_filter', 'filter[__proto__]'],
      ['/api/v1/employees?filter[constructor][prototype]=1', 'unknown_filter', 'filter[constructor]'],
      ['/api/v1/employees?filter[prototype]=1', 'unknown_filter', 'filter[prototype]'],
      ['/api/v1/employees?filter[toString]=1', 'unknown_filter', 'filter[toString]'],
      ['/api/v1/employees?sort[__proto__]=x', 'invalid_parameter', 'sort'],
      ['/api/v1/employees?fields[__proto__]=x&fields[employees]=age', '', ''],
      ['/api/v1/employees?stats[__proto__]=count', 'unknown_stat', 'stats[__proto__]'],
      ['/api/v1/employees?page[__proto__][size]=1', 'unknown_page_parameter', 'page[__proto__]'],
      ['/api/v1/employees?include=__proto__', 'unknown_include', 'include'],
      ['/api/v1/employees/1?__proto__[toString]=1', '', ''],
    ];
    for (const [path, code, parameter] of cases) {
      const response = await client.get(path);
      t.true(isJsonApi(response), path);
      if (code === '') {
        t.is(response.status, 200, path);
      } else {
        t.is(response.status, 400, path);
        t.like(errorOf(response), { code, source: { parameter } }, path);
      }
    }
    await assertNotPoisoned(t);
  });

  test.serial(`${db.name}: finding 1 — prototype keys in bodies are unknown members, and poison nothing`, async (t) => {
    const before = await tableCounts(dir.models);
    const bodies: Array<[string, string]> = [
      ['{"data":{"type":"employees","attributes":{"__proto__":{"eq":1},"first_name":"A","last_name":"B"}}}', '/data/attributes/__proto__'],
      ['{"data":{"type":"employees","attributes":{"constructor":{"prototype":{"x":1}},"first_name":"A","last_name":"B"}}}', '/data/attributes/constructor'],
      ['{"data":{"type":"employees","attributes":{"first_name":"A","last_name":"B"},"relationships":{"__proto__":{"data":[]}}}}', '/data/relationships/__proto__'],
    ];
    for (const [body, pointer] of bodies) {
      const response = await client.request('POST', '/api/v1/employees', body);
      t.is(response.status, 400, body);
      t.is(errorOf(response).source?.pointer, pointer, body);
    }
    const typed = await client.request('POST', '/api/v1/employees', '{"data":{"type":"__proto__","attributes":{}}}');
    t.is(typed.status, 409);
    t.deepEqual(await tableCounts(dir.models), before);
    await assertNotPoisoned(t);
  });

  test.serial(`${db.name}: finding 3 — a NUL byte in any filter value is a 400 naming the parameter`, async (t) => {
    for (const operator of ['eq', 'eql', 'prefix', 'suffix', 'match', 'not_eq', 'not_eql', 'not_prefix', 'not_suffix', 'not_match']) {
      const response = await client.get(`/api/v1/employees?filter[first_name][${operator}]=a%00b`);
      t.is(response.status, 400, operator);
      t.like(errorOf(response), { code: 'invalid_character', source: { parameter: `filter[first_name][${operator}]` } });
    }
  });

  test.serial(`${db.name}: finding 3 — a NUL byte in a body string is a 400 pointing at it, and nothing is written`, async (t) => {
    const before = await tableCounts(dir.models);
    const response = await client.request('POST', '/api/v1/employees', { data: { type: 'employees', attributes: { first_name: 'A\u0000', last_name: 'B' } } });
    t.is(response.status, 400);
    t.like(errorOf(response), { code: 'invalid_character', source: { pointer: '/data/attributes/first_name' } });
    const sideposted = await client.request('POST', '/api/v1/employees', {
      data: { type: 'employees', attributes: { first_name: 'A', last_name: 'B' }, relationships: { positions: { data: [{ type: 'positions', 'temp-id': 'p', method: 'create' }] } } },
      included: [{ type: 'positions', 'temp-id': 'p', attributes: { title: '\u0000' } }],
    });
    t.like(errorOf(sideposted), { status: '400', code: 'invalid_character', source: { pointer: '/included/0/attributes/title' } });
    t.deepEqual(await tableCounts(dir.models), before);
  });

  test.serial(`${db.name}: finding 3 — ids are coerced by their type on every route before any SQL runs`, async (t) => {
    const before = await tableCounts(dir.models);
    const requests: Array<[string, string, unknown?]> = [
      ['GET', '/api/v1/employees/abc'],
      ['PATCH', '/api/v1/employees/abc', { data: { type: 'employees', id: 'abc', attributes: { age: 1 } } }],
      ['DELETE', '/api/v1/departments/abc'],
      ['DELETE', '/api/v1/departments/1.5'],
      ['GET', '/api/v1/departments/abc/teams'],
      ['GET', '/api/v1/departments/abc/relationships/teams'],
      ['PATCH', '/api/v1/employees/1', { data: { type: 'employees', id: '1', relationships: { teams: { data: [{ type: 'teams', id: 'x' }] } } } }],
    ];
    for (const [method, path, body] of requests) {
      const response = await client.request(method, path, body);
      t.is(response.status, 400, `${method} ${path}`);
      t.is(errorOf(response).code, 'type_error', `${method} ${path}`);
      // the id is the path's: the answer names no parameter the client did not send
      t.is(errorOf(response).source?.parameter, undefined, `${method} ${path}`);
    }
    const identifier = await client.request('PATCH', '/api/v1/employees/1', requests.find(([, path, body]) => path === '/api/v1/employees/1' && body)![2]);
    t.is(errorOf(identifier).source?.pointer, '/data/relationships/teams/data/0/id');
    t.is((await client.request('DELETE', '/api/v1/departments/99999999999')).status, 404);
    t.deepEqual(await tableCounts(dir.models), before);
  });

  test.serial(`${db.name}: finding 3 — values that do not fit their column are a 422 at the attribute, not a database error`, async (t) => {
    const before = await tableCounts(dir.models);
    const tooBig = await patchAge('1', 2 ** 31);
    t.is(tooBig.status, 422);
    t.like(errorOf(tooBig), { source: { pointer: '/data/attributes/age' } });
    const huge = await client.request('PATCH', '/api/v1/employees/1', { data: { type: 'employees', id: '1', attributes: { first_name: 'x'.repeat(100_000) } } });
    t.is(huge.status, 422);
    t.like(errorOf(huge), { source: { pointer: '/data/attributes/first_name' } });
    t.deepEqual(await tableCounts(dir.models), before);
  });

  test.serial(`${db.name}: finding 4 — a path that is not valid percent-encoding is a JSON:API 400, not an HTML page`, async (t) => {
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const response = await client.request(method, '/api/v1/employees/%FF', method === 'PATCH' ? {} : undefined);
      t.is(response.status, 400, method);
      t.true(isJsonApi(response), method);
      t.is(errorOf(response).code, 'invalid_path');
    }
  });

  test.serial(`${db.name}: a query string that is not valid percent-encoded UTF-8 is a 400 at its parameter, not a search for U+FFFD`, async (t) => {
    for (const path of ['/api/v1/employees?filter[first_name]=%FF%FE', '/api/v1/employees/1?include=positions&fields[employees]=%E0%A4']) {
      const response = await client.get(path);
      t.is(response.status, 400, path);
      t.true(isJsonApi(response), path);
      t.like(errorOf(response), { code: 'invalid_encoding', detail: 'The query string is not valid percent-encoded UTF-8' });
    }
    t.like(errorOf(await client.get('/api/v1/employees?filter[first_name]=%FF')), { source: { parameter: 'filter[first_name]' } });
    t.is((await client.get('/api/v1/employees?filter[first_name][match]=50%')).status, 200, 'a lone % is a literal %');
  });

  test.serial(`${db.name}: finding 4 — a DELETE with a body deletes and ignores the body`, async (t) => {
    const epic = await dir.models.Task.create({ type: 'epics', title: 'E', employee_id: 1 });
    const milestone = await dir.models.Milestone.create({ name: 'M', epic_id: epic.id });
    for (const body of ['{"data":{"type":"milestones","id":"x"}}', 'not json', '']) {
      const other = await dir.models.Milestone.create({ name: 'N', epic_id: epic.id });
      const response = await client.request('DELETE', `/api/v1/milestones/${other.id}`, body, { 'content-type': 'application/vnd.api+json' });
      t.is(response.status, 200, body);
    }
    t.is((await client.request('DELETE', `/api/v1/milestones/${milestone.id}`, '{}')).status, 200);
    t.is(await dir.models.Milestone.findByPk(milestone.id), null);
  });
}
