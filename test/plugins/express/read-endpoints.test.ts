import test from 'ava';
import express from 'express';
import type { Sequelize } from 'sequelize';
import { muralRouter } from '../../../plugins/express/index.ts';
import { openDatabase, testDatabases } from '../../support/databases.ts';
import { serve, type HttpClient } from '../../support/http.ts';
import { definePeople, personResource } from '../../support/people.ts';

type Doc = { data: Array<{ id: string; attributes: Record<string, unknown> }>; meta: Record<string, unknown>; links?: Record<string, string>; errors?: Array<Record<string, unknown>> };

for (const db of testDatabases()) {
  let sequelize: Sequelize;
  let client: HttpClient;

  test.before(async () => {
    sequelize = await openDatabase(db, 'http_read');
    const Base = personResource(await definePeople(sequelize));
    class PersonResource extends Base {
      static {
        this.type = 'people';
        this.endpointNamespace = '/api/v1';
        this.defaultPageSize = 2;
        this.attribute('salary', 'big_decimal', { readable: 'isAdmin' });
        this.filter('status', { required: false });
      }
      isAdmin() {
        return this.context?.role === 'admin';
      }
    }
    class ReadOnlyPerson extends Base {
      static {
        this.type = 'readers';
        this.endpointNamespace = '/api/v1';
        this.primaryEndpoint('/readers', ['index']);
      }
    }
    const app = express();
    app.use(muralRouter({ resources: [PersonResource, ReadOnlyPerson], context: (req) => ({ role: req.header('X-Role') }) }));
    app.use((_req, res) => void res.status(418).send('app fallback'));
    client = await serve(app);
  });
  test.after.always(async () => {
    await client?.close();
    await sequelize?.close();
  });

  test(`${db.name}: GET index answers a JSON:API document with the JSON:API media type`, async (t) => {
    const response = await client.get('/api/v1/people?filter[age][gte]=30&sort=-age&fields[people]=name,age');
    t.is(response.status, 200);
    t.regex(response.contentType ?? '', /^application\/vnd\.api\+json/);
    const body = response.body as Doc;
    t.deepEqual(body.data.map((d) => d.attributes), [{ name: '100% Pure', age: 50 }, { name: 'back\\slash', age: 41 }]);
    t.deepEqual(body.meta, {});
  });

  test(`${db.name}: pagination links keep every parameter and replace page, brackets unencoded`, async (t) => {
    const response = await client.get('/api/v1/people?filter[active]=true&sort=id&page[number]=2');
    const body = response.body as Doc;
    t.deepEqual(body.data.map((d) => d.id), ['5', '6']);
    const base = '/api/v1/people?filter[active]=true&sort=id';
    t.deepEqual(body.links, {
      self: `${base}&page[number]=2&page[size]=2`,
      first: `${base}&page[number]=1&page[size]=2`,
      prev: `${base}&page[number]=1&page[size]=2`,
      last: `${base}&page[number]=2&page[size]=2`,
    });
  });

  test(`${db.name}: the first page has next but no prev; stats and links share one count`, async (t) => {
    const body = (await client.get('/api/v1/people?stats[total]=count')).body as Doc;
    t.deepEqual(body.meta, { stats: { total: { count: 6 } } });
    t.deepEqual(Object.keys(body.links!), ['self', 'first', 'next', 'last']);
    t.is(body.links!.last, '/api/v1/people?stats[total]=count&page[number]=3&page[size]=2');
  });

  test(`${db.name}: GET show renders one record; a missing one is a JSON:API 404`, async (t) => {
    const found = await client.get('/api/v1/people/6?fields[people]=name');
    t.is(found.status, 200);
    t.deepEqual(found.body, { data: { id: '6', type: 'people', attributes: { name: "O'Brien" } }, meta: {}, jsonapi: { version: '1.1' } });
    const missing = await client.get('/api/v1/people/999');
    t.is(missing.status, 404);
    t.deepEqual(missing.body, {
      errors: [{ status: '404', code: 'not_found', title: 'Not Found', detail: 'No people record with id "999"' }],
      jsonapi: { version: '1.1' },
    });
  });

  test(`${db.name}: the context function feeds guards`, async (t) => {
    const guest = (await client.get('/api/v1/people/1')).body as { data: { attributes: Record<string, unknown> } };
    t.false('salary' in guest.data.attributes);
    const admin = (await client.get('/api/v1/people/1', { 'X-Role': 'admin' })).body as { data: { attributes: Record<string, unknown> } };
    t.is(admin.data.attributes.salary, '70.03');
  });

  const badRequests: Array<[string, string, RegExp]> = [
    ['/api/v1/people?filter[height]=3', 'filter[height]', /Unknown filter "height" on people; filterable: id, name/],
    ['/api/v1/people?filter[age][about]=3', 'filter[age][about]', /Unknown operator "about" for filter "age".*allowed: eq, not_eq, gt/],
    ['/api/v1/people?filter[age][gt]=old', 'filter[age][gt]', /"old" should be type integer/],
    ['/api/v1/people?filter[born_on]=2019-01', 'filter[born_on]', /should be type date/],
    ['/api/v1/people?filter[status]=retired', 'filter[status]', /"retired" is not allowed for filter "status"; allowed: "active", "inactive", "pending"/],
    ['/api/v1/people?sort=height', 'sort', /Unknown sort "height"/],
    ['/api/v1/people?page[size]=1001', 'page[size]', /above the maximum of 1000/],
    ['/api/v1/people?stats[age]=sum', 'stats[age]', /Unknown stat "age"/],
    ['/api/v1/people?include=friends', 'include', /Unknown include "friends"/],
    ['/api/v1/people?fields[people]=height', 'fields[people]', /Unknown field "height"/],
  ];
  for (const [path, parameter, detail] of badRequests) {
    test(`${db.name}: ${decodeURIComponent(path.split('?')[1]!)} is a 400 naming ${parameter}`, async (t) => {
      const response = await client.get(path);
      t.is(response.status, 400);
      const [error] = (response.body as Doc).errors!;
      t.is(error!.status, '400');
      t.is(error!.title !== undefined && typeof error!.code, 'string');
      t.deepEqual(error!.source, { parameter });
      t.regex(String(error!.detail), detail);
    });
  }

  test(`${db.name}: an action a Resource does not allow is not routed`, async (t) => {
    t.is((await client.get('/api/v1/readers')).status, 200);
    const show = await client.get('/api/v1/readers/1');
    t.is(show.status, 404);
    t.is(((show.body as Doc).errors![0] as { code: string }).code, 'not_found');
  });

  test(`${db.name}: unknown paths under the namespace are JSON:API 404s; others reach the app`, async (t) => {
    const unknown = await client.get('/api/v1/nothing-here');
    t.is(unknown.status, 404);
    t.deepEqual(unknown.body, {
      errors: [{ status: '404', code: 'not_found', title: 'Not Found', detail: 'No route for GET /api/v1/nothing-here' }],
      jsonapi: { version: '1.1' },
    });
    t.is((await client.get('/elsewhere')).status, 418);
  });
}
