import test from 'ava';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, type Directory } from '../../support/directory.ts';
import { serve, type HttpClient } from '../../support/http.ts';

type ErrorDoc = { errors: Array<{ status: string; code: string; source?: Record<string, string> }>; jsonapi: unknown };
type Doc = { data: { id: string; type: string; attributes: Record<string, unknown> }; jsonapi: unknown };

const JSONAPI = 'application/vnd.api+json';
const UNKNOWN_EXT = 'https://example.com/ext/unknown';
const employee = (firstName: string) => ({ data: { type: 'employees', attributes: { first_name: firstName, last_name: 'Negotiated' } } });

/**
 * JSON:API 1.1 content negotiation, as a client meets it: responses carry the
 * bare media type and the `jsonapi` member; an `Accept` Mural cannot honour is
 * a 406 and a body it will not read a 415, before any query, with
 * `source.header` naming the header; a create answers its record's URL.
 */
for (const db of testDatabases('content_negotiation')) {
  let dir: Directory;
  let client: HttpClient;
  test.before(async () => {
    dir = await openDirectory(db, 'content_negotiation', 10);
    client = await serve(dir.app);
  });
  test.after.always(async () => {
    await client?.close();
    await dir?.sequelize.close();
  });

  const created = () => dir.models.Employee.count({ where: { last_name: 'Negotiated' } });

  test.serial(`${db.name}: every answer is ${JSONAPI} with no parameter, varies on Accept, and announces JSON:API 1.1`, async (t) => {
    for (const path of ['/api/v1/employees?page[size]=1', '/api/v1/employees/1', '/api/v1/employees/999', '/api/v1/employees?filter[nope]=1']) {
      const response = await client.get(path);
      t.is(response.contentType, JSONAPI, path);
      t.is(response.headers.get('vary'), 'Accept', path);
      t.deepEqual((response.body as Doc).jsonapi, { version: '1.1' }, path);
    }
  });

  test.serial(`${db.name}: Accept headers Mural can answer`, async (t) => {
    const acceptable = [
      JSONAPI,
      `${JSONAPI}; profile="https://example.com/profiles/timestamps"`,
      `${JSONAPI}; charset=utf-8, ${JSONAPI}`,
      `${JSONAPI}; ext="${UNKNOWN_EXT}", ${JSONAPI}; q=0.5`,
      '*/*',
      'application/*',
      'application/json',
      'text/html, */*;q=0.8',
    ];
    for (const accept of acceptable) {
      const response = await client.get('/api/v1/employees/1', { accept });
      t.is(response.status, 200, accept);
      t.is(response.contentType, JSONAPI, accept);
    }
  });

  test.serial(`${db.name}: Accept headers Mural cannot answer are a 406 naming the header, before any query`, async (t) => {
    const unacceptable = [
      `${JSONAPI}; charset=utf-8`,
      `${JSONAPI}; charset=utf-8, */*`,
      `${JSONAPI}; ext="${UNKNOWN_EXT}"`,
      `${JSONAPI}; ext="${UNKNOWN_EXT}", ${JSONAPI}; version=1.1`,
      `${JSONAPI}; q=0`,
      'text/html',
      'text/html, application/json;q=0',
    ];
    for (const accept of unacceptable) {
      dir.resetQueries();
      const response = await client.get('/api/v1/employees/1', { accept });
      t.is(response.status, 406, accept);
      t.is(response.contentType, JSONAPI, accept);
      t.like(response.body as ErrorDoc, { errors: [{ status: '406', code: 'not_acceptable', source: { header: 'Accept' } }], jsonapi: { version: '1.1' } }, accept);
      t.deepEqual(dir.queries, [], accept);
    }
  });

  test.serial(`${db.name}: a body Mural will not read is a 415 naming Content-Type, and nothing is written`, async (t) => {
    const refused = [`${JSONAPI}; charset=utf-8`, `${JSONAPI}; ext="${UNKNOWN_EXT}"`, `${JSONAPI}; ext="https://jsonapi.org/ext/atomic"`, 'text/plain', 'application/x-www-form-urlencoded'];
    for (const contentType of refused) {
      const response = await client.request('POST', '/api/v1/employees', employee('Refused'), { 'content-type': contentType });
      t.is(response.status, 415, contentType);
      t.like(response.body as ErrorDoc, { errors: [{ status: '415', code: 'unsupported_media_type', source: { header: 'Content-Type' } }] }, contentType);
      const patched = await client.request('PATCH', '/api/v1/employees/1', { data: { type: 'employees', id: '1', attributes: { last_name: 'Negotiated' } } }, {
        'content-type': contentType,
      });
      t.is(patched.status, 415, contentType);
      const linked = await client.request('POST', '/api/v1/employees/1/relationships/teams', { data: [] }, { 'content-type': contentType });
      t.is(linked.status, 415, contentType);
    }
    t.is(await created(), 0);
  });

  test.serial(`${db.name}: JSON:API with a profile, or plain JSON, is read; a create answers 201 with its URL in Location`, async (t) => {
    for (const contentType of [`${JSONAPI}; profile="https://example.com/profiles/timestamps"`, 'application/json; charset=utf-8']) {
      const response = await client.request('POST', '/api/v1/employees', employee('Accepted'), { 'content-type': contentType });
      t.is(response.status, 201, contentType);
      const record = (response.body as Doc).data;
      t.is(response.headers.get('location'), `/api/v1/employees/${record.id}`);
      const shown = await client.get(response.headers.get('location')!);
      t.is(shown.status, 200);
      t.is((shown.body as Doc).data.attributes.first_name, 'Accepted');
    }
    t.is(await created(), 2);
    await dir.models.Employee.destroy({ where: { last_name: 'Negotiated' } });
  });

  test.serial(`${db.name}: a DELETE's body is ignored whatever its type`, async (t) => {
    const record = await dir.models.Employee.create({ first_name: 'Doomed', last_name: 'Negotiated' });
    const response = await client.request('DELETE', `/api/v1/employees/${record.id}`, 'anything', { 'content-type': 'text/plain' });
    t.is(response.status, 200);
    t.deepEqual(response.body, { meta: {}, jsonapi: { version: '1.1' } });
    t.is(await created(), 0);
  });
}
