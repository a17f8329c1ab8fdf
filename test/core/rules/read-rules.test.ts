import test from 'ava';
import type { Sequelize } from 'sequelize';
import { withContext, type JsonApiDocument, type ResourceObject } from '../../../core/index.ts';
import { testDatabases, openDatabase } from '../../support/databases.ts';
import { serve, type HttpClient } from '../../support/http.ts';
import { as, defineTenantModels, defineTenantResources, seedTenants, tenantApp, type TenantResources, type TenantUser } from '../../support/tenant-api.ts';

/**
 * A read rule (`allow('read', …)`) narrows every path a record can be read
 * by: a record of another tenant is never listed, shown, included,
 * counted, summed, matched by `filter[has]`, sorted by, or reached through a
 * relationship endpoint.
 */
const ACME: TenantUser = { companyId: 1, employeeId: 1 };
const GLOBEX: TenantUser = { companyId: 2, employeeId: 3 };

const ids = (body: unknown) => [(body as JsonApiDocument).data].flat().map((record) => (record as ResourceObject).id);
const includedIds = (body: unknown, type: string) =>
  ((body as JsonApiDocument).included ?? []).filter((record) => record.type === type).map((record) => record.id).sort();

for (const db of testDatabases('read_rules')) {
  let sequelize: Sequelize;
  let resources: TenantResources;
  let http: HttpClient;
  const queries: string[] = [];
  test.before(async () => {
    sequelize = await openDatabase(db, 'read_rules', { logging: (sql) => void queries.push(sql) });
    const models = defineTenantModels(sequelize);
    await sequelize.sync({ force: true });
    await seedTenants(models);
    resources = defineTenantResources(models);
    http = await serve(tenantApp(resources));
  });
  test.after.always(async () => {
    await http?.close();
    await sequelize?.close();
  });

  test(`${db.name}: an index lists the caller's tenant only, and nothing without a context`, async (t) => {
    t.deepEqual(ids((await http.get('/t/employees?sort=id', as(ACME))).body), ['1', '2', '4']);
    t.deepEqual(ids((await http.get('/t/employees?sort=id', as(GLOBEX))).body), ['3', '5']);
    t.deepEqual(ids((await http.get('/t/employees')).body), [], 'a rule naming a context value the request lacks admits nothing');
  });

  test(`${db.name}: another tenant's record is a 404, byte for byte the answer for a missing one`, async (t) => {
    const hidden = await http.get('/t/employees/3', as(ACME));
    const missing = await http.get('/t/employees/99', as(ACME));
    t.is(hidden.status, 404);
    t.is(hidden.text, missing.text.replaceAll('99', '3'));
    t.is((await http.get('/t/employees/3', as(GLOBEX))).status, 200);
  });

  test(`${db.name}: include at every depth drops records of another tenant, and linkage to them`, async (t) => {
    const { body } = await http.get('/t/employees?sort=id&include=department.employees,teams.employees,notes', as(ACME));
    t.deepEqual(ids(body), ['1', '2', '4']);
    t.deepEqual(includedIds(body, 'departments'), ['1', '2'], 'Globex Eng, Mallory\'s department, is not included');
    const mallory = [(body as JsonApiDocument).data].flat().find((record) => (record as ResourceObject).id === '4') as ResourceObject;
    t.is((mallory.relationships!.department as { data?: unknown }).data, null, 'linkage to an unreadable record reads as none');
    t.deepEqual(includedIds(body, 'teams'), ['1', '2']);
    t.deepEqual(includedIds(body, 'employees'), [], 'the included departments\' and teams\' employees are the primary ones (Eve of Globex is in Acme Eng and Acme Red)');
    t.deepEqual(includedIds(body, 'notes'), ['1', '2']);
    const eve = await http.get('/t/departments/1?include=employees', as(ACME));
    t.deepEqual(includedIds(eve.body, 'employees'), ['1']);
  });

  test(`${db.name}: filter[has] and related sorts see only readable related records`, async (t) => {
    t.deepEqual(ids((await http.get('/t/departments?filter[has][employees.name]=Eve', as(ACME))).body), [], 'Eve (Globex) works in Acme Eng');
    t.deepEqual(ids((await http.get('/t/departments?filter[has_no][employees.name]=Eve&sort=id', as(ACME))).body), ['1', '2']);
    t.deepEqual(ids((await http.get('/t/teams?filter[has][employees.name]=Linus', as(ACME))).body), []);
    // Mallory's department is Globex's: sorted as having none, last ascending
    t.deepEqual(ids((await http.get('/t/employees?sort=department.name,id', as(ACME))).body), ['1', '2', '4']);
    t.deepEqual(ids((await http.get('/t/employees?sort=-department.name,id', as(ACME))).body), ['4', '2', '1']);
  });

  test(`${db.name}: stats and counts cover the caller's records only`, async (t) => {
    const { body } = await http.get('/t/employees?stats[age]=sum,maximum&stats[total]=count', as(ACME));
    t.like((body as JsonApiDocument).meta, { stats: { total: { count: 3 } } });
    const age = ((body as JsonApiDocument).meta as { stats: { age: { sum: unknown; maximum: unknown } } }).stats.age;
    t.is(Number(age.sum), 36 + 45 + 30);
    t.is(Number(age.maximum), 45);
  });

  test(`${db.name}: cursor pages walk the caller's records and stop there`, async (t) => {
    const seen: string[] = [];
    let path: string | undefined = '/t/employees?page[size]=1&page[after]=';
    for (let hops = 0; path && hops < 10; hops++) {
      const { body } = await http.get(path, as(GLOBEX));
      seen.push(...ids(body));
      const next = (body as JsonApiDocument).links?.next;
      path = typeof next === 'string' ? next.replace(http.baseUrl, '') : undefined;
    }
    t.deepEqual(seen, ['3', '5']);
  });

  test(`${db.name}: related and relationship endpoints answer within the rule`, async (t) => {
    t.is(((await http.get('/t/employees/4/department', as(ACME))).body as JsonApiDocument).data, null, 'Mallory\'s department is Globex\'s');
    t.is((await http.get('/t/employees/3/department', as(ACME))).status, 404, 'the parent itself is unreadable');
    t.deepEqual(ids((await http.get('/t/employees/1/teams', as(ACME))).body), ['1']);
    t.deepEqual(ids((await http.get('/t/employees/1/relationships/teams', as(ACME))).body), ['1']);
    t.is((await http.get('/t/employees/1/relationships/teams', as(GLOBEX))).status, 404, 'Ada is not Globex\'s');
  });

  test(`${db.name}: an ETag never validates for a caller who sees other records`, async (t) => {
    const acme = await http.get('/t/employees', as(ACME));
    const etag = acme.headers.get('etag')!;
    t.truthy(etag);
    t.is((await http.get('/t/employees', { ...as(ACME), 'If-None-Match': etag })).status, 304);
    const globex = await http.get('/t/employees', { ...as(GLOBEX), 'If-None-Match': etag });
    t.is(globex.status, 200);
    t.deepEqual(ids(globex.body), ['3', '5']);
  });

  test(`${db.name}: a rule through a to-one relationship, ORed with a column`, async (t) => {
    t.deepEqual(ids((await http.get('/t/notes?sort=id', as(ACME))).body), ['1', '2', '4']);
    t.deepEqual(ids((await http.get('/t/notes?sort=id', as(GLOBEX))).body), ['3', '4', '5']);
    t.deepEqual(ids((await http.get('/t/notes?sort=id')).body), [], 'no context: the whole rule fails closed, the public branch too');
    const { body } = await http.get('/t/notes?sort=id&include=employee', as(ACME));
    t.deepEqual(includedIds(body, 'employees'), ['1'], 'the public note\'s employee (Linus) is Globex\'s');
  });

  test.serial(`${db.name}: meta_fields[type]=permissions says what the caller may do with each record, in the records' own query`, async (t) => {
    const permissions = (body: unknown, type: string) =>
      Object.fromEntries([(body as JsonApiDocument).data, ...((body as JsonApiDocument).included ?? [])].flat().filter((r) => (r as ResourceObject).type === type).map((r) => [(r as ResourceObject).id, (r as ResourceObject).meta?.permissions]));
    queries.length = 0;
    await http.get('/t/employees?sort=id&include=notes', as(ACME));
    const plain = queries.length;
    queries.length = 0;
    const { body } = await http.get('/t/employees?sort=id&include=notes&meta_fields[employees]=permissions&meta_fields[notes]=permissions', as(ACME));
    t.is(queries.length, plain, 'no query more');
    t.deepEqual(permissions(body, 'employees'), { 1: { update: true, destroy: false }, 2: { update: false, destroy: false }, 4: { update: false, destroy: false } });
    t.deepEqual(permissions(body, 'notes'), { 1: { update: true, destroy: true }, 2: { update: false, destroy: false } });
    const admin = await http.get('/t/employees?sort=id&meta_fields[employees]=permissions', as({ ...ACME, role: 'admin' }));
    t.deepEqual(permissions(admin.body, 'employees'), { 1: { update: true, destroy: true }, 2: { update: true, destroy: true }, 4: { update: true, destroy: true } });
    const text = (await http.get('/t/employees/1?meta_fields[employees]=permissions', as(ACME))).text;
    t.true(text.includes('"meta":{"permissions":{"update":true,"destroy":false}}'), text);
    t.is((await http.get('/t/employees?meta_fields[employees]=rights', as(ACME))).status, 400);
    const cursor = await http.get('/t/employees?page[size]=1&page[after]=&meta_fields[employees]=permissions', as(ACME));
    t.like(([(cursor.body as JsonApiDocument).data].flat()[0] as ResourceObject).meta, { permissions: { update: true, destroy: false } });
    t.truthy(([(cursor.body as JsonApiDocument).data].flat()[0] as ResourceObject).meta?.page?.cursor);
  });

  test.serial(`${db.name}: in-process queries obey the rule, a base scope given or not, in one query each`, async (t) => {
    const { EmployeeResource } = resources;
    const read = (user: TenantUser | undefined, baseScope?: unknown) =>
      withContext(user ? { user } : {}, async () => ((await EmployeeResource.all({ sort: 'id' }, baseScope).data) as Array<{ id: number }>).map((record) => record.id));
    t.deepEqual(await read(GLOBEX), [3, 5]);
    t.deepEqual(await read(undefined), []);
    const everyone = new EmployeeResource().baseScope();
    t.deepEqual(await read(ACME, everyone), [1, 2, 4], 'a base scope given by the caller never widens the rule');
    queries.length = 0;
    await read(ACME);
    t.is(queries.length, 1);
    t.regex(queries[0]!, /company_id/);
  });
}
