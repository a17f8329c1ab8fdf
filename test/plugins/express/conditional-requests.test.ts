import test from 'ava';
import express from 'express';
import { muralRouter } from '../../../plugins/express/index.ts';
import { configureSqlite } from '../../../plugins/sequelize/index.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, tableCounts, type Directory } from '../../support/directory.ts';
import { serve, type HttpClient, type HttpResponse } from '../../support/http.ts';
import { sqliteFileDatabase } from '../../support/sqlite-file.ts';
import { ADMIN as EXAMPLE_ADMIN } from '../../support/example-auth.ts';

type ErrorDoc = { errors: Array<{ status: string; code: string; source?: Record<string, unknown> }> };
type Doc = { data: { id: string; attributes: Record<string, unknown> } };

// an admin to both apps mounted here: the cached teams' own router reads X-Role, the example the bearer token
const ADMIN = { 'X-Role': 'admin', ...EXAMPLE_ADMIN };
const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const patchAge = (id: number, age: number) => ({ data: { type: 'employees', id: String(id), attributes: { age } } });
const teams = (...ids: number[]) => ({ data: ids.map((id) => ({ type: 'teams', id: String(id) })) });

/**
 * Conditional requests (RFC 9110 §13) on the example directory, whose
 * employees declare `lock_version` as their version: ETags on every GET,
 * 304 for `If-None-Match`, `Cache-Control` and `Vary`, and `If-Match` on
 * writes answering 412 when the record changed, checked with the row locked.
 */
const file = sqliteFileDatabase();
test.after.always(() => file.remove());

for (const db of [file, ...testDatabases('conditional_requests')]) {
  const label = db === file ? 'sqlite file' : db.name;
  let dir: Directory;
  let client: HttpClient;
  test.before(async () => {
    dir = await openDirectory(db, 'conditional_requests', 30);
    configureSqlite(dir.sequelize, { writeQueueTimeout: 60_000 });
    const { TeamResource } = dir.resources;
    class CachedTeam extends TeamResource {
      static {
        this.type = 'cached_teams';
        this.endpointNamespace = '/cached';
        this.cacheControl = 'public, max-age=60';
        this.primaryEndpoint('/teams', ['index', 'show']);
      }
    }
    const app = express();
    app.use(muralRouter({ resources: [CachedTeam], context: (req) => ({ role: req.header('X-Role') }), vary: ['X-Role'] }));
    app.use(dir.app);
    client = await serve(app);
  });
  test.after.always(async () => {
    await client?.close();
    await dir?.sequelize.close();
  });
  const get = (path: string, headers?: Record<string, string>) => client.get(`/api/v1${path}`, headers);
  const send = (method: string, path: string, body: unknown, headers?: Record<string, string>) => client.request(method, `/api/v1${path}`, body, headers);
  const etag = (response: HttpResponse) => response.headers.get('etag')!;
  const versionOf = (tag: string) => tag.slice(1, tag.indexOf('.'));
  const lockVersion = async (id: number) => (await dir.models.Employee.findByPk(id))!.lock_version;
  const ageOf = async (id: number) => (await dir.models.Employee.findByPk(id))!.age;

  test.serial(`${label}: every GET carries a strong ETag of its bytes, the same for the same answer`, async (t) => {
    for (const path of ['/employees?page[size]=5', '/employees/1?include=positions', '/employees/1/positions', '/employees/1/relationships/teams', '/teams/1']) {
      const [first, second] = [await get(path), await get(path)];
      t.is(first.status, 200, path);
      t.regex(etag(first), /^"[^"]+"$/, `${path}: a strong tag`);
      t.is(etag(first), etag(second), `${path}: stable`);
    }
    const show = await get('/employees/2');
    t.is(versionOf(etag(show)), String(await lockVersion(2)), 'a versioned record\'s show: "<version>.<hash>"');
    t.notRegex(etag(await get('/teams/1')), /\./, 'teams declare no version: the hash alone');
    t.not(etag(await get('/employees/2?fields[employees]=age')), etag(show), 'another representation, another tag');
    t.is(versionOf(etag(await get('/employees/2?fields[employees]=age'))), versionOf(etag(show)), 'of the same version');
  });

  test.serial(`${label}: the ETag differs when the guard context changes what is rendered, and after a write`, async (t) => {
    const guest = await get('/employees/3');
    const admin = await get('/employees/3', ADMIN);
    t.true('salary' in (admin.body as Doc).data.attributes);
    t.not(etag(guest), etag(admin));
    t.not(etag(await get('/employees?page[size]=3')), etag(await get('/employees?page[size]=3', ADMIN)));
    const before = etag(await get('/employees/3'));
    t.is((await send('PATCH', '/employees/3', patchAge(3, ((await ageOf(3)) ?? 50) + 1))).status, 200);
    const after = etag(await get('/employees/3'));
    t.not(after, before);
    t.is(Number(versionOf(after)), Number(versionOf(before)) + 1);
  });

  test.serial(`${label}: If-None-Match naming the current ETag (or *) is a 304 with no body`, async (t) => {
    const first = await get('/employees/4?include=teams');
    for (const header of [etag(first), `"other", ${etag(first)}`, `W/${etag(first)}`, '*']) {
      const again = await get('/employees/4?include=teams', { 'If-None-Match': header });
      t.is(again.status, 304, header);
      t.is(again.text, '');
      t.is(again.headers.get('etag'), etag(first));
      t.is(again.headers.get('cache-control'), first.headers.get('cache-control'));
      t.is(again.headers.get('vary'), first.headers.get('vary'));
    }
    const index = await get('/employees?page[size]=2');
    t.is((await get('/employees?page[size]=2', { 'If-None-Match': etag(index) })).status, 304, 'lists too');
    t.is((await get('/employees/4?include=teams', { 'If-None-Match': '"stale"' })).status, 200);
    t.is((await get('/employees/4', { 'If-None-Match': etag(first) })).status, 200, 'another representation');
    t.is((await get('/employees/4?include=teams', { 'If-None-Match': etag(first), ...ADMIN })).status, 200, 'another guard context');
    const malformed = await get('/employees/4', { 'If-None-Match': 'abc' });
    t.is(malformed.status, 400);
    t.deepEqual((malformed.body as ErrorDoc).errors[0]!.source, { header: 'If-None-Match' });
  });

  test.serial(`${label}: Cache-Control and Vary: private with a context function, the Resource's own with the router's vary`, async (t) => {
    const directory = await get('/employees/1');
    t.is(directory.headers.get('cache-control'), 'private, no-cache', 'a context and no vary: no shared cache may store it');
    t.is(directory.headers.get('vary'), 'Accept');
    const cached = await client.get('/cached/teams/1');
    t.is(cached.status, 200);
    t.is(cached.headers.get('cache-control'), 'public, max-age=60');
    t.is(cached.headers.get('vary'), 'Accept, X-Role');
    const written = await send('PATCH', '/employees/1', patchAge(1, 33));
    t.is(written.headers.get('cache-control'), null, 'writes are not cached');
    t.regex(etag(written), /^"\d+\./, 'a write answering a versioned record carries its new ETag');
    // not always the same bytes: MariaDB keeps updated_at to the second, the written model has milliseconds
    t.is(versionOf(etag(written)), versionOf(etag(await get('/employees/1'))), 'the version a show of it carries');
  });

  test.serial(`${label}: PATCH and DELETE with a stale If-Match are 412s that write nothing`, async (t) => {
    const tag = etag(await get('/employees/5'));
    t.is((await send('PATCH', '/employees/5', patchAge(5, 41), { 'If-Match': tag })).status, 200, 'current: written');
    t.is(await ageOf(5), 41);
    const counts = await tableCounts(dir.models);
    const stale = await send('PATCH', '/employees/5', patchAge(5, 42), { 'If-Match': tag });
    t.is(stale.status, 412);
    t.like((stale.body as ErrorDoc).errors[0], { status: '412', code: 'precondition_failed', source: { header: 'If-Match' } });
    t.is(await ageOf(5), 41);
    const gone = await send('DELETE', '/employees/5', undefined, { 'If-Match': tag });
    t.is(gone.status, 412);
    t.deepEqual(await tableCounts(dir.models), counts, 'nothing written, nothing deleted');
    t.is((await send('PATCH', '/employees/5', patchAge(5, 43), { 'If-Match': `"${await lockVersion(5)}"` })).status, 200, 'the version alone is a tag');
    t.is((await send('PATCH', '/employees/5', patchAge(5, 44), { 'If-Match': '*' })).status, 200, '* holds for any existing record');
    t.is((await send('PATCH', '/employees/5', patchAge(5, 45), { 'If-Match': `W/"${await lockVersion(5)}"` })).status, 412, 'weak tags never match a write');
    t.is((await send('DELETE', '/employees/5', undefined, { 'If-Match': etag(await get('/employees/5')) })).status, 200);
    t.is(await dir.models.Employee.findByPk(5), null);
  });

  test.serial(`${label}: relationship writes: a stale If-Match is a 412; a write makes a new version of the parent`, async (t) => {
    const tag = etag(await get('/employees/6'));
    const before = (await dir.models.EmployeeTeam.findAll({ where: { employee_id: 6 } })).length;
    const stale = await send('POST', '/employees/6/relationships/teams', teams(1, 2, 3), { 'If-Match': '"999"' });
    t.is(stale.status, 412);
    t.deepEqual((stale.body as ErrorDoc).errors[0]!.source, { header: 'If-Match' });
    t.is((await dir.models.EmployeeTeam.findAll({ where: { employee_id: 6 } })).length, before);
    t.is((await send('PATCH', '/employees/6/relationships/teams', teams(4), { 'If-Match': tag })).status, 204);
    t.is(await lockVersion(6), Number(versionOf(tag)) + 1, 'its relationships are part of the record: a new version');
    t.is((await send('DELETE', '/employees/6/relationships/teams', teams(4), { 'If-Match': tag })).status, 412, 'the old tag is stale now');
  });

  test.serial(`${label}: If-Match where it cannot hold: a Resource without a version takes * only, a malformed header is a 400`, async (t) => {
    const unversioned = await send('PATCH', '/teams/1', { data: { type: 'teams', id: '1', attributes: { name: 'Ops' } } }, { 'If-Match': etag(await get('/teams/1')) });
    t.is(unversioned.status, 400);
    t.like((unversioned.body as ErrorDoc).errors[0], { code: 'precondition_unsupported', source: { header: 'If-Match' } });
    t.is((await send('PATCH', '/teams/1', { data: { type: 'teams', id: '1', attributes: { name: 'Ops' } } }, { 'If-Match': '*' })).status, 200);
    const malformed = await send('PATCH', '/employees/7', patchAge(7, 30), { 'If-Match': '3' });
    t.is(malformed.status, 400);
    t.deepEqual((malformed.body as ErrorDoc).errors[0]!.source, { header: 'If-Match' });
  });

  test.serial(`${label}: a GET's If-Match: * or the current tag (or its version) answers, anything else is a 412 (issue #34, finding 8)`, async (t) => {
    const first = await get('/employees/20?include=teams');
    const tag = etag(first);
    for (const header of ['*', tag, `"other", ${tag}`, `"${versionOf(tag)}"`, etag(await get('/employees/20'))]) {
      const again = await get('/employees/20?include=teams', { 'If-Match': header });
      t.is(again.status, 200, header);
      t.is(etag(again), tag, header);
    }
    for (const header of ['"stale"', `W/${tag}`, `"${Number(versionOf(tag)) + 1}"`]) {
      const refused = await get('/employees/20?include=teams', { 'If-Match': header });
      t.is(refused.status, 412, header);
      t.like((refused.body as ErrorDoc).errors[0], { status: '412', code: 'precondition_failed', source: { header: 'If-Match' } }, header);
    }
    const list = await get('/employees?page[size]=2');
    t.is((await get('/employees?page[size]=2', { 'If-Match': etag(list) })).status, 200, 'lists: the tag itself');
    t.is((await get('/employees?page[size]=2', { 'If-Match': '"x"' })).status, 412);
    t.is((await get('/teams/1', { 'If-Match': '"1"' })).status, 412, 'an unversioned record: its whole tag only');
    t.is((await get('/employees/99999', { 'If-Match': '*' })).status, 404, 'a 404 stays a 404');
    t.is((await get('/employees/20', { 'If-Match': '3' })).status, 400, 'malformed');
    t.is((await get('/employees/20', { 'If-Match': '"stale"', 'If-None-Match': tag })).status, 412, 'If-Match is evaluated first');
  });

  test.serial(`${label}: If-None-Match on a write: * is a 412 on any record that exists, a tag of its version too, and nothing is written`, async (t) => {
    const tag = etag(await get('/employees/21'));
    const counts = await tableCounts(dir.models);
    const version = await lockVersion(21);
    const refusals: Array<[string, string, unknown, string]> = [
      ['PATCH', '/employees/21', patchAge(21, 50), '*'],
      ['DELETE', '/employees/21', undefined, '*'],
      ['POST', '/employees/21/relationships/teams', teams(1), '*'],
      ['PATCH', '/teams/2', { data: { type: 'teams', id: '2', attributes: { name: 'X' } } }, '*'],
      ['PATCH', '/employees/21', patchAge(21, 50), tag],
      ['DELETE', '/employees/21', undefined, `W/"${version}"`],
    ];
    for (const [method, path, body, header] of refusals) {
      const response = await send(method, path, body, { 'If-None-Match': header });
      t.is(response.status, 412, `${method} ${path} ${header}`);
      t.like((response.body as ErrorDoc).errors[0], { code: 'precondition_failed', source: { header: 'If-None-Match' } }, `${method} ${path}`);
    }
    t.deepEqual(await tableCounts(dir.models), counts);
    t.is(await lockVersion(21), version);
    t.is((await send('PATCH', '/employees/99999', patchAge(99999, 1), { 'If-None-Match': '*' })).status, 404, 'no record: a 404, as without the header');
    t.is((await send('PATCH', '/employees/21', patchAge(21, 51), { 'If-None-Match': '"999"' })).status, 200, 'another version: written');
    const unversioned = await send('PATCH', '/teams/2', { data: { type: 'teams', id: '2', attributes: { name: 'X' } } }, { 'If-None-Match': '"1"' });
    t.like((unversioned.body as ErrorDoc).errors[0], { status: '400', code: 'precondition_unsupported' });
  });

  test.serial(`${label}: sideposted records carry their condition in meta.version`, async (t) => {
    const position = await dir.models.Position.findOne({ where: { employee_id: 8 } });
    const version = await lockVersion(8);
    const body = (v: unknown) => ({
      data: { type: 'positions', id: String(position!.id), relationships: { employee: { data: { type: 'employees', id: '8', method: 'update' } } } },
      included: [{ type: 'employees', id: '8', attributes: { age: 60 }, meta: { version: v } }],
    });
    const stale = await send('PATCH', `/positions/${position!.id}`, body(String(version + 5)));
    t.is(stale.status, 412);
    t.deepEqual((stale.body as ErrorDoc).errors[0]!.source, { pointer: '/included/0/meta/version' });
    t.not(await ageOf(8), 60);
    t.is((await send('PATCH', `/positions/${position!.id}`, body(String(version)))).status, 200);
    t.is(await ageOf(8), 60);
  });

  test.serial(`${label}: concurrent PATCHes with the same If-Match: exactly one is written, the others are 412s`, async (t) => {
    const tag = etag(await get('/employees/9'));
    const ages = range(8).map((i) => 20 + i);
    const answers = await Promise.all(ages.map((age) => send('PATCH', '/employees/9', patchAge(9, age), { 'If-Match': tag })));
    const statuses = answers.map((a) => a.status);
    t.is(statuses.filter((s) => s === 200).length, 1, statuses.join());
    t.is(statuses.filter((s) => s === 412).length, ages.length - 1, statuses.join());
    const winner = answers.find((a) => a.status === 200)!;
    t.is(await ageOf(9), (winner.body as Doc).data.attributes.age as number);
    t.is(await lockVersion(9), Number(versionOf(tag)) + 1);
  });

  test.serial(`${label}: SQL: If-Match adds no query; the record is read once, locked`, async (t) => {
    // a new age each time: a PATCH that changes nothing saves nothing, and would count one query fewer
    let age = ((await ageOf(10)) ?? 30) + 1;
    const count = async (headers: Record<string, string>) => {
      dir.resetQueries();
      t.is((await send('PATCH', '/employees/10', patchAge(10, age++), headers)).status, 200);
      return dir.queries.filter((q) => /^Executing \([^)]*\): (SELECT|UPDATE)/.test(q));
    };
    const plain = await count({});
    const conditional = await count({ 'If-Match': etag(await get('/employees/10')) });
    t.is(conditional.length, plain.length, `plain:\n${plain.join("\n")}\nconditional:\n${conditional.join("\n")}`);
    if (db.name !== 'sqlite') t.regex(conditional[0]!, /FOR UPDATE/);
  });
}

/**
 * Atomic operations carry the same precondition in the document, since one
 * request's `If-Match` cannot speak for each of its operations: an update's
 * `data.meta.version` (as a sideposted record's) or any operation's
 * `ref.meta.version`. A stale one fails its operation with a 412 pointed
 * under it, and nothing of the request is written.
 */
const operationsFile = sqliteFileDatabase();
test.after.always(() => operationsFile.remove());

for (const db of [operationsFile, ...testDatabases('conditional_operations')]) {
  const label = db === operationsFile ? 'sqlite file' : db.name;
  let dir: Directory;
  let client: HttpClient;
  test.before(async () => {
    dir = await openDirectory(db, 'conditional_operations', 12);
    configureSqlite(dir.sequelize, { writeQueueTimeout: 60_000 });
    client = await serve(dir.app);
  });
  test.after.always(async () => {
    await client?.close();
    await dir?.sequelize.close();
  });
  const operations = (...list: unknown[]) =>
    client.request('POST', '/api/v1/operations', { 'atomic:operations': list }, { 'content-type': 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"' });
  const lockVersion = async (id: number) => (await dir.models.Employee.findByPk(id))!.lock_version;
  const ageOf = async (id: number) => (await dir.models.Employee.findByPk(id))!.age;
  const addDepartment = (name: string) => ({ op: 'add', data: { type: 'departments', attributes: { name } } });
  const departmentNamed = (name: string) => dir.models.Department.count({ where: { name } });
  const update = (id: number, age: number, meta?: unknown) => ({ op: 'update', data: { type: 'employees', id: String(id), attributes: { age }, ...(meta ? { meta } : {}) } });
  const sourceOf = (response: HttpResponse) => (response.body as ErrorDoc).errors[0]!.source;

  test.serial(`${label}: an update's data.meta.version: stale is a 412 under its operation, and the earlier operations are undone`, async (t) => {
    const version = await lockVersion(1);
    const stale = await operations(addDepartment('Undone'), update(1, 61, { version: String(version + 1) }));
    t.is(stale.status, 412, stale.text);
    t.like((stale.body as ErrorDoc).errors[0], { status: '412', code: 'precondition_failed', source: { pointer: '/atomic:operations/1/data/meta/version' } });
    t.is(await departmentNamed('Undone'), 0);
    t.not(await ageOf(1), 61);
    const current = await operations(update(1, 61, { version: `"${version}.someHash"` }));
    t.is(current.status, 200, 'the whole ETag works too: only its version counts');
    t.is(await ageOf(1), 61);
    t.is(await lockVersion(1), version + 1);
  });

  test.serial(`${label}: ref.meta.version conditions a remove, an update named by ref and a relationship operation`, async (t) => {
    const ref = (id: number, version: unknown, relationship?: string) => ({ type: 'employees', id: String(id), ...(relationship ? { relationship } : {}), meta: { version } });
    const staleRemove = await operations(addDepartment('Kept out'), { op: 'remove', ref: ref(2, '999') });
    t.is(staleRemove.status, 412);
    t.deepEqual(sourceOf(staleRemove), { pointer: '/atomic:operations/1/ref/meta/version' });
    t.not(await dir.models.Employee.findByPk(2), null);
    t.is(await departmentNamed('Kept out'), 0);

    const staleTeams = await operations({ op: 'add', ref: ref(3, 998, 'teams'), data: [{ type: 'teams', id: '1' }] });
    t.is(staleTeams.status, 412);
    t.deepEqual(sourceOf(staleTeams), { pointer: '/atomic:operations/0/ref/meta/version' });
    const version = await lockVersion(3);
    const written = await operations(
      { op: 'update', ref: ref(3, version, 'teams'), data: [{ type: 'teams', id: '2' }] },
      { op: 'update', ref: ref(3, version + 1), data: { type: 'employees', id: '3', attributes: { age: 52 } } },
    );
    t.is(written.status, 200, written.text);
    t.is(await lockVersion(3), version + 2, 'each operation made a new version, which the next one named');
    t.is(await ageOf(3), 52);
    t.is((await operations({ op: 'remove', ref: ref(2, await lockVersion(2)) })).status, 200);
    t.is(await dir.models.Employee.findByPk(2), null);
  });

  test.serial(`${label}: a malformed or doubly stated version is a 400 before any query`, async (t) => {
    dir.resetQueries();
    const malformed = await operations({ op: 'remove', ref: { type: 'employees', id: '4', meta: { version: { at: 1 } } } });
    t.is(malformed.status, 400);
    t.deepEqual(sourceOf(malformed), { pointer: '/atomic:operations/0/ref/meta/version' });
    const twice = await operations({ op: 'update', ref: { type: 'employees', id: '4', meta: { version: '1' } }, data: { type: 'employees', id: '4', attributes: { age: 30 }, meta: { version: '1' } } });
    t.is(twice.status, 400);
    t.deepEqual(sourceOf(twice), { pointer: '/atomic:operations/0/data/meta/version' });
    t.deepEqual(dir.queries.filter((q) => /^Executing \([^)]*\): (SELECT|UPDATE|DELETE|INSERT)/.test(q)), []);
    const unversioned = await operations({ op: 'remove', ref: { type: 'teams', id: '3', meta: { version: '1' } } });
    t.is(unversioned.status, 400, 'teams declare no version: only * can hold');
    t.like((unversioned.body as ErrorDoc).errors[0], { code: 'precondition_unsupported', source: { pointer: '/atomic:operations/0/ref/meta/version' } });
  });

  test.serial(`${label}: concurrent operations requests with the same version: exactly one is written`, async (t) => {
    const version = await lockVersion(5);
    const ages = range(6).map((i) => 30 + i);
    const answers = await Promise.all(ages.map((age) => operations(update(5, age, { version: String(version) }))));
    const statuses = answers.map((a) => a.status);
    t.is(statuses.filter((s) => s === 200).length, 1, statuses.join());
    t.is(statuses.filter((s) => s === 412).length, ages.length - 1, statuses.join());
    t.is(await lockVersion(5), version + 1);
  });
}
