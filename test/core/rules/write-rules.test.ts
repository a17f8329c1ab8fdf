import test from 'ava';
import type { Sequelize } from 'sequelize';
import type { JsonApiDocument } from '../../../core/index.ts';
import { openDatabase, testDatabases } from '../../support/databases.ts';
import { serve, type HttpClient, type HttpResponse } from '../../support/http.ts';
import { as, defineTenantModels, seedTenants, defineTenantResources, tenantApp, tenantRows, type TenantModels, type TenantUser } from '../../support/tenant-api.ts';

/**
 * Write rules: update and destroy touch only rows the rules admit (a 404
 * for a row the caller cannot read, a 403 for one it can read but not
 * change), creates and updates leave the row inside the rules, and a
 * write links only records the writer may read (and link). Every refusal
 * leaves the database as it was.
 */
const ADA: TenantUser = { companyId: 1, employeeId: 1 };
const ACME_ADMIN: TenantUser = { companyId: 1, employeeId: 2, role: 'admin' };

const JSONAPI = {};
const ATOMIC = { 'content-type': 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"', accept: 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"' };
const firstError = (response: HttpResponse) => (response.body as { errors: Array<{ code: string; source?: { pointer?: string } }> }).errors[0]!;

for (const db of testDatabases('write_rules')) {
  let sequelize: Sequelize;
  let models: TenantModels;
  let http: HttpClient;
  const snapshot = () => tenantRows(sequelize);
  const refused = async (t: import('ava').ExecutionContext, write: () => Promise<HttpResponse>, status: number, code: string, pointer?: string) => {
    const before = await snapshot();
    const response = await write();
    t.is(response.status, status, response.text);
    t.is(firstError(response).code, code);
    if (pointer !== undefined) t.is(firstError(response).source?.pointer, pointer);
    t.deepEqual(await snapshot(), before, 'nothing written');
  };
  const patch = (path: string, data: unknown, user: TenantUser) => http.request('PATCH', path, { data }, { ...JSONAPI, ...as(user) });
  const post = (path: string, body: unknown, user: TenantUser, headers: Record<string, string> = JSONAPI) => http.request('POST', path, body, { ...headers, ...as(user) });

  test.beforeEach(async () => {
    await sequelize.sync({ force: true });
    await seedTenants(models);
  });
  test.before(async () => {
    sequelize = await openDatabase(db, 'write_rules');
    models = defineTenantModels(sequelize);
    http = await serve(tenantApp(defineTenantResources(models)));
  });
  test.after.always(async () => {
    await http?.close();
    await sequelize?.close();
  });

  test.serial(`${db.name}: update touches only rows the rules admit`, async (t) => {
    await refused(t, () => patch('/t/employees/3', { type: 'employees', id: '3', attributes: { name: 'X' } }, ADA), 404, 'not_found');
    await refused(t, () => patch('/t/employees/2', { type: 'employees', id: '2', attributes: { name: 'X' } }, ADA), 403, 'forbidden_by_rule', '/data');
    const own = await patch('/t/employees/1', { type: 'employees', id: '1', attributes: { name: 'Ada L.' } }, ADA);
    t.is(own.status, 200, own.text);
    t.is((await patch('/t/employees/2', { type: 'employees', id: '2', attributes: { name: 'Grace H.' } }, ACME_ADMIN)).status, 200);
  });

  test.serial(`${db.name}: a write cannot move a record into another tenant, nor create one there`, async (t) => {
    await refused(t, () => patch('/t/employees/1', { type: 'employees', id: '1', attributes: { company_id: 2 } }, ADA), 403, 'forbidden_by_rule', '/data');
    await refused(t, () => post('/t/employees', { data: { type: 'employees', attributes: { name: 'Spy', company_id: 2 } } }, ADA), 403, 'forbidden_by_rule', '/data');
    const created = await post('/t/employees', { data: { type: 'employees', attributes: { name: 'New', company_id: 1 } } }, ADA);
    t.is(created.status, 201, created.text);
  });

  test.serial(`${db.name}: destroy needs the destroy rule, after the read rule`, async (t) => {
    const destroy = (id: string, user: TenantUser) => http.request('DELETE', `/t/employees/${id}`, undefined, as(user));
    await refused(t, () => destroy('3', ACME_ADMIN), 404, 'not_found');
    await refused(t, () => destroy('4', ADA), 403, 'forbidden_by_rule');
    t.is((await destroy('4', ACME_ADMIN)).status, 200);
    t.is((await http.get('/t/employees/4', as(ACME_ADMIN))).status, 404);
  });

  test.serial(`${db.name}: a write links only records the writer may read, and may link`, async (t) => {
    const toDepartment = (id: string) => patch('/t/employees/1', { type: 'employees', id: '1', relationships: { department: { data: { type: 'departments', id } } } }, ADA);
    await refused(t, () => toDepartment('3'), 404, 'not_found');
    await refused(t, () => patch('/t/employees/1', { type: 'employees', id: '1', attributes: { department_id: 3 } }, ADA), 404, 'not_found', '/data/attributes/department_id');
    t.is((await toDepartment('2')).status, 200);
    const join = (id: string) => post('/t/employees/1/relationships/teams', { data: [{ type: 'teams', id }] }, ADA);
    await refused(t, () => join('3'), 404, 'not_found');
    await refused(t, () => join('2'), 403, 'forbidden_by_rule', '/data/0');
    t.is((await join('1')).status, 204);
  });

  test.serial(`${db.name}: sideposting links and creates within the rules`, async (t) => {
    const note = (employee: string) => ({ data: { type: 'notes', attributes: { body: 'hi' }, relationships: { employee: { data: { type: 'employees', id: employee } } } } });
    await refused(t, () => post('/t/notes', note('3'), ADA), 404, 'not_found');
    const created = await post('/t/notes', note('2'), ADA);
    t.is(created.status, 201, created.text);
    const sideposted = {
      data: { type: 'departments', attributes: { name: 'Skunkworks', company_id: 1 }, relationships: { employees: { data: [{ type: 'employees', 'temp-id': 'e1', method: 'create' }] } } },
      included: [{ type: 'employees', 'temp-id': 'e1', attributes: { name: 'Mole', company_id: 2 } }],
    };
    await refused(t, () => post('/t/departments', sideposted, ADA), 403, 'forbidden_by_rule', '/included/0');
  });

  test.serial(`${db.name}: notes: only their author may change them, whoever may read them`, async (t) => {
    await refused(t, () => patch('/t/notes/2', { type: 'notes', id: '2', attributes: { body: 'edited' } }, ADA), 403, 'forbidden_by_rule');
    t.is((await patch('/t/notes/1', { type: 'notes', id: '1', attributes: { body: 'edited' } }, ADA)).status, 200);
    await refused(t, () => http.request('DELETE', '/t/notes/3', undefined, as(ADA)), 404, 'not_found');
    t.is((await http.request('DELETE', '/t/notes/1', undefined, as(ADA))).status, 200);
  });

  test.serial(`${db.name}: atomic operations check each operation against the state the previous ones left`, async (t) => {
    const operations = (ops: unknown[]) => post('/t/operations', { 'atomic:operations': ops }, ADA, ATOMIC);
    await refused(
      t,
      () => operations([
        { op: 'update', data: { type: 'employees', id: '1', attributes: { name: 'first' } } },
        { op: 'update', data: { type: 'employees', id: '1', attributes: { company_id: 2 } } },
      ]),
      403,
      'forbidden_by_rule',
    );
    const done = await operations([
      { op: 'add', data: { type: 'departments', lid: 'd', attributes: { name: 'Lab', company_id: 1 } } },
      { op: 'update', data: { type: 'employees', id: '1', relationships: { department: { data: { type: 'departments', lid: 'd' } } } } },
    ]);
    t.is(done.status, 200, done.text);
    const read = await http.get('/t/employees/1?include=department', as(ADA));
    t.is(((read.body as JsonApiDocument).included ?? [])[0]?.attributes?.name, 'Lab');
  });
}
