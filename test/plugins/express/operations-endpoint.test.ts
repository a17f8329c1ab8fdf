import test from 'ava';
import express from 'express';
import { muralRouter } from '../../../plugins/express/index.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, tableCounts, type Directory } from '../../support/directory.ts';
import { serve, type HttpClient } from '../../support/http.ts';
import { ADMIN } from '../../support/example-auth.ts';

type Resource = { id: string; type: string; lid?: string; attributes: Record<string, unknown> };
type Errors = { errors: Array<{ status: string; code: string; source?: Record<string, unknown> }> };
type Results = { 'atomic:results': Array<{ data?: Resource }>; jsonapi: unknown };

const ATOMIC = 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"';

/**
 * `POST {ns}/operations` (`muralRouter({ operations: true })`): the atomic
 * extension's media type both ways, one transaction, the failing
 * operation's error.
 */
for (const db of testDatabases('operations_endpoint')) {
  let dir: Directory;
  let client: HttpClient;
  test.before(async () => {
    dir = await openDirectory(db, 'operations_endpoint', 10);
    const { DepartmentResource } = dir.resources;
    // a namespace of its own, without operations: its Resources are not written by the directory's endpoint
    class PlainDepartment extends DepartmentResource {
      static {
        this.type = 'plain_departments';
        this.endpointNamespace = '/plain';
      }
    }
    const app = express();
    app.use(muralRouter({ resources: [PlainDepartment] }));
    app.use(dir.app);
    client = await serve(app);
  });
  test.after.always(async () => {
    await client?.close();
    await dir?.sequelize.close();
  });

  const post = (body: unknown, headers: Record<string, string> = {}) => client.request('POST', '/api/v1/operations', body, { 'content-type': ATOMIC, ...headers });
  const hire = (lid: string, attributes: Record<string, unknown> = {}) => ({
    op: 'add', data: { type: 'employees', lid, attributes: { first_name: 'Ada', last_name: 'Lovelace', ...attributes } },
  });

  test.serial(`${db.name}: 200 with atomic:results in the extension's media type, exactly, and jsonapi.ext`, async (t) => {
    const response = await post({ 'atomic:operations': [
      hire('ada'),
      { op: 'add', data: { type: 'positions', attributes: { title: 'Countess' }, relationships: { employee: { data: { type: 'employees', lid: 'ada' } } } } },
    ] });
    t.is(response.status, 200, response.text);
    t.is(response.contentType, ATOMIC);
    const body = response.body as Results;
    t.deepEqual(body.jsonapi, { version: '1.1', ext: ['https://jsonapi.org/ext/atomic'] });
    const [ada, position] = body['atomic:results'];
    t.like(ada!.data, { type: 'employees', lid: 'ada', attributes: { first_name: 'Ada' } });
    t.is((await dir.models.Position.findByPk(Number(position!.data!.id)))!.employee_id, Number(ada!.data!.id));
  });

  test.serial(`${db.name}: results that are all empty still answer 200 with the document`, async (t) => {
    const created = await dir.models.Department.create({ name: 'Short-lived' });
    const response = await post({ 'atomic:operations': [{ op: 'remove', ref: { type: 'departments', id: String(created.id) } }] });
    t.is(response.status, 200);
    t.deepEqual((response.body as Results)['atomic:results'], [{}]);
    t.is(await dir.models.Department.findByPk(created.id), null);
  });

  test.serial(`${db.name}: any other Content-Type is a 415 naming the header, before anything is read or written`, async (t) => {
    const before = await tableCounts(dir.models);
    const body = { 'atomic:operations': [hire('x')] };
    for (const contentType of [
      'application/vnd.api+json', 'application/json', `${ATOMIC}; charset=utf-8`, 'application/vnd.api+json; ext="https://example.com/ext/other"', 'text/plain',
      // an extension this endpoint does not apply, beside the atomic one
      'application/vnd.api+json;ext="https://jsonapi.org/ext/atomic https://example.com/other"',
    ]) {
      const response = await post(body, { 'content-type': contentType });
      t.is(response.status, 415, contentType);
      t.like((response.body as Errors).errors[0], { code: 'unsupported_media_type', source: { header: 'Content-Type' } });
    }
    t.is((await post(body, { 'content-type': 'application/vnd.api+json;ext="https://jsonapi.org/ext/atomic"' })).status, 200);
    t.is((await post(body, { 'content-type': 'application/vnd.api+json; profile="https://example.com/p"; ext="https://jsonapi.org/ext/atomic"' })).status, 200);
    t.is((await tableCounts(dir.models)).Employee, before.Employee + 2);
  });

  test.serial(`${db.name}: the failing operation's error, under its pointer, in the extension's media type, and nothing written`, async (t) => {
    const before = await tableCounts(dir.models);
    const refuse = async (body: unknown, status: number, pointer: string, headers?: Record<string, string>) => {
      const response = await post(body, headers);
      t.is(response.status, status, response.text);
      t.is((response.body as Errors).errors[0]!.source?.pointer, pointer);
      t.is(response.contentType, ATOMIC, 'errors come in the media type the endpoint answers, as they point into the extension');
      t.deepEqual((response.body as { jsonapi: unknown }).jsonapi, { version: '1.1', ext: ['https://jsonapi.org/ext/atomic'] });
    };
    await refuse({ 'atomic:operations': [hire('a'), hire('b', { first_name: '' })] }, 422, '/atomic:operations/1/data/attributes/first_name');
    await refuse({ 'atomic:operations': [hire('a'), { op: 'remove', ref: { type: 'employees', lid: 'b' } }] }, 400, '/atomic:operations/1/ref/lid');
    await refuse({ 'atomic:operations': [hire('a'), { op: 'remove', ref: { type: 'employees', id: '999999' } }] }, 404, '/atomic:operations/1/ref');
    await refuse({ 'atomic:operations': [hire('a'), { op: 'update', ref: { type: 'employees', lid: 'a' }, data: { type: 'teams', attributes: {} } }] }, 409, '/atomic:operations/1/data/type');
    await refuse({ 'atomic:operations': [hire('a'), { op: 'add', ref: { type: 'employees', lid: 'a', relationship: 'notes' }, data: [] }] }, 404, '/atomic:operations/1/ref/relationship');
    await refuse({ 'atomic:operations': [hire('a', { salary: '1.00' })] }, 422, '/atomic:operations/0/data/attributes/salary');
    await refuse({ 'atomic:operations': [hire('a'), { op: 'add', data: { type: 'plain_departments', attributes: { name: 'Plain' } } }] }, 400, '/atomic:operations/1/data/type');
    t.deepEqual(await tableCounts(dir.models), before);
    const admin = await post({ 'atomic:operations': [hire('a', { salary: '1.00' })] }, ADMIN);
    t.is(admin.status, 200, 'the request context decides guards, as on every endpoint');
  });

  test.serial(`${db.name}: Accept: the atomic instance or a plain one is answered in the extension's media type; another extension alone is a 406`, async (t) => {
    const body = { 'atomic:operations': [hire('accept')] };
    for (const accept of [ATOMIC, 'application/vnd.api+json', '*/*']) {
      const response = await post(body, { accept });
      t.is(response.status, 200, accept);
      t.is(response.contentType, ATOMIC);
    }
    const refused = await post(body, { accept: 'application/vnd.api+json; ext="https://example.com/ext/other"' });
    t.is(refused.status, 406);
    t.like((refused.body as Errors).errors[0], { code: 'not_acceptable', source: { header: 'Accept' } });
  });

  test.serial(`${db.name}: malformed JSON and bodies are a 400; a router without operations: true answers 404`, async (t) => {
    const malformed = await post('{"atomic:operations": [');
    t.is(malformed.status, 400);
    t.is((malformed.body as Errors).errors[0]!.code, 'invalid_json');
    t.is((await post('')).status, 400);
    t.is((await post({ data: { type: 'employees' } })).status, 400);
    const plain = await client.request('POST', '/plain/operations', { 'atomic:operations': [hire('a')] }, { 'content-type': ATOMIC });
    t.is(plain.status, 404);
  });

  test.serial(`${db.name}: any query parameter is a 400 unsupported_parameter naming it, and nothing is written (issue #34, finding 8)`, async (t) => {
    const before = await tableCounts(dir.models);
    const body = { 'atomic:operations': [hire('q')] };
    for (const [query, parameter] of [['include=notes', 'include'], ['fields[employees]=age&sort=x', 'fields[employees]'], ['foo', 'foo']]) {
      const response = await client.request('POST', `/api/v1/operations?${query}`, body, { 'content-type': ATOMIC });
      t.is(response.status, 400, query);
      t.like((response.body as Errors).errors[0], { code: 'unsupported_parameter', source: { parameter } }, query);
    }
    const encoding = await client.request('POST', '/api/v1/operations?include=%FF', body, { 'content-type': ATOMIC });
    t.like((encoding.body as Errors).errors[0], { status: '400', code: 'invalid_encoding' });
    t.deepEqual(await tableCounts(dir.models), before);
    t.is((await client.request('POST', '/api/v1/operations?', body, { 'content-type': ATOMIC })).status, 200, 'an empty query string is no parameter');
  });
}

test('a Resource served at {ns}/operations and operations: true cannot share the path', async (t) => {
  const dir = await openDirectory({ name: 'sqlite', url: ':memory:' }, 'operations_path', 1);
  try {
    class Operation extends dir.resources.TeamResource {
      static {
        this.type = 'operations';
      }
    }
    t.throws(() => muralRouter({ resources: [Operation], operations: true }), { message: /served at \/api\/v1\/operations/ });
    t.notThrows(() => muralRouter({ resources: [Operation] }));
  } finally {
    await dir.sequelize.close();
  }
});
