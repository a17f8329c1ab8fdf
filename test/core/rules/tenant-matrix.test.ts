import test, { type ExecutionContext } from 'ava';
import type { Sequelize } from 'sequelize';
import type { JsonApiDocument } from '../../../core/index.ts';
import { openDatabase, testDatabases } from '../../support/databases.ts';
import { serve, type HttpClient } from '../../support/http.ts';
import { as, defineTenantModels, defineTenantResources, seedTenants, tenantApp, tenantRows, type TenantModels, type TenantUser } from '../../support/tenant-api.ts';

/**
 * Two tenants × every read route × every parameter family, and every write
 * path aimed at the other tenant: no record of the other company is ever
 * listed, included, linked, counted or changed, and each refusal leaves
 * every table as it was.
 */
const USERS: Record<string, TenantUser> = { acme: { companyId: 1, employeeId: 1, role: 'admin' }, globex: { companyId: 2, employeeId: 3, role: 'admin' } };
const TENANT_TYPES = ['departments', 'employees', 'teams'] as const;

/** Every GET a client of the tenant API can make, a parameter family or two at a time. */
const READS = [
  '/t/employees',
  '/t/employees?fields[employees]=name&include=department',
  '/t/employees?include=department.employees,teams.employees,notes',
  '/t/employees?filter[name]=Eve,Ada,Linus,Mallory,Grace',
  '/t/employees?filter[age][gte]=20&sort=-age',
  '/t/employees?include=teams&filter[teams.name][prefix]=Acme',
  '/t/employees?sort=department.name',
  '/t/employees?filter[has][teams.name]=Globex%20Green',
  '/t/employees?filter[has_no][teams.open]=false',
  '/t/employees?stats[total]=count&stats[age]=sum,maximum',
  '/t/employees?page[size]=2&page[number]=2',
  '/t/employees?page[size]=2&page[after]=',
  '/t/departments?include=employees&page[employees][size]=1',
  '/t/employees?meta_fields[employees]=permissions&include=department&meta_fields[departments]=permissions',
  '/t/departments?include=employees.teams',
  '/t/departments?filter[has][employees.age][gte]=1',
  '/t/teams?include=employees.department&stats[total]=count',
  '/t/notes?include=employee.department',
  ...[1, 2, 3, 4, 5].flatMap((id) => [`/t/employees/${id}?include=department,teams,notes`, `/t/employees/${id}/teams`, `/t/employees/${id}/department`, `/t/employees/${id}/relationships/teams`, `/t/employees/${id}/notes`]),
  ...[1, 2, 3].flatMap((id) => [`/t/departments/${id}?include=employees`, `/t/departments/${id}/employees`, `/t/teams/${id}/employees`, `/t/teams/${id}/relationships/employees`]),
];

/** Every (type, id) a document names: its records, included records, and linkage. */
function namedRecords(document: JsonApiDocument): Array<{ type: string; id: string }> {
  const found: Array<{ type: string; id: string }> = [];
  const records = [document.data, document.included ?? []].flat(2).filter((record): record is NonNullable<typeof record> => record !== null && record !== undefined);
  for (const record of records) {
    found.push({ type: record.type, id: record.id });
    for (const relationship of Object.values((record as { relationships?: Record<string, { data?: unknown }> }).relationships ?? {})) {
      for (const linked of [relationship.data ?? []].flat() as Array<{ type: string; id: string }>) found.push(linked);
    }
  }
  return found;
}

for (const db of testDatabases('tenant_matrix')) {
  let sequelize: Sequelize;
  let models: TenantModels;
  let http: HttpClient;
  /** Each tenant table's company, by record: the truth a response is checked against. */
  const companyOf = new Map<string, number>();
  const snapshot = () => tenantRows(sequelize);
  test.before(async () => {
    sequelize = await openDatabase(db, 'tenant_matrix');
    models = defineTenantModels(sequelize);
    await sequelize.sync({ force: true });
    await seedTenants(models);
    for (const [type, model] of [['departments', models.Department], ['employees', models.Employee], ['teams', models.Team]] as const) {
      for (const row of await model.findAll()) companyOf.set(`${type}:${String(row.get('id'))}`, row.get('company_id') as number);
    }
    http = await serve(tenantApp(defineTenantResources(models)));
  });
  test.after.always(async () => {
    await http?.close();
    await sequelize?.close();
  });

  for (const [name, user] of Object.entries(USERS)) {
    test(`${db.name}: ${name} reads nothing of the other company, on ${READS.length} routes`, async (t) => {
      for (const path of READS) {
        const response = await http.get(path, as(user));
        if (response.status === 404) continue;
        t.is(response.status, 200, `${path}: ${response.text.slice(0, 300)}`);
        const foreign = namedRecords(response.body as JsonApiDocument).filter(
          (record) => (TENANT_TYPES as readonly string[]).includes(record.type) && companyOf.get(`${record.type}:${record.id}`) !== user.companyId,
        );
        t.deepEqual(foreign, [], path);
        const stats = (response.body as { meta?: { stats?: { total?: { count: number } } } }).meta?.stats?.total?.count;
        if (stats !== undefined && path.startsWith('/t/employees')) t.is(stats, [...companyOf].filter(([key, company]) => key.startsWith('employees:') && company === user.companyId).length, path);
      }
    });
  }

  test.serial(`${db.name}: every write aimed at the other company is refused and changes nothing`, async (t) => {
    const acme = USERS.acme!;
    const before = await snapshot();
    const attempts: Array<[string, string, unknown]> = [
      ['PATCH', '/t/employees/3', { data: { type: 'employees', id: '3', attributes: { name: 'x' } } }],
      ['DELETE', '/t/employees/3', undefined],
      ['PATCH', '/t/departments/3', { data: { type: 'departments', id: '3', attributes: { name: 'x' } } }],
      ['PATCH', '/t/employees/1', { data: { type: 'employees', id: '1', relationships: { department: { data: { type: 'departments', id: '3' } } } } }],
      ['PATCH', '/t/employees/1', { data: { type: 'employees', id: '1', relationships: { teams: { data: [{ type: 'teams', id: '3' }] } } } }],
      ['PATCH', '/t/employees/1', { data: { type: 'employees', id: '1', attributes: { department_id: 3 } } }],
      ['PATCH', '/t/employees/1', { data: { type: 'employees', id: '1', attributes: { company_id: 2 } } }],
      ['POST', '/t/employees', { data: { type: 'employees', attributes: { name: 'x', company_id: 2 } } }],
      ['POST', '/t/employees', { data: { type: 'employees', attributes: { name: 'x', company_id: 1, department_id: 3 } } }],
      ['POST', '/t/departments', { data: { type: 'departments', attributes: { name: 'x', company_id: 1 }, relationships: { employees: { data: [{ type: 'employees', id: '5' }] } } } }],
      ['POST', '/t/employees/1/relationships/teams', { data: [{ type: 'teams', id: '3' }] }],
      ['PATCH', '/t/employees/1/relationships/teams', { data: [{ type: 'teams', id: '1' }, { type: 'teams', id: '3' }] }],
      ['PATCH', '/t/employees/4/relationships/department', { data: { type: 'departments', id: '3' } }],
      ['POST', '/t/employees/3/relationships/teams', { data: [{ type: 'teams', id: '1' }] }],
      ['DELETE', '/t/employees/3/relationships/teams', { data: [{ type: 'teams', id: '3' }] }],
      ['POST', '/t/teams/3/relationships/employees', { data: [{ type: 'employees', id: '1' }] }],
      ['POST', '/t/notes', { data: { type: 'notes', attributes: { body: 'x' }, relationships: { employee: { data: { type: 'employees', id: '5' } } } } }],
      ['PATCH', '/t/notes/3', { data: { type: 'notes', id: '3', attributes: { body: 'x' } } }],
      ['DELETE', '/t/notes/4', undefined],
    ];
    for (const [method, path, body] of attempts) await refused(t, method, path, body, acme);
    const atomic = { 'content-type': 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"', accept: 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"' };
    const operations = [
      [{ op: 'update', data: { type: 'employees', id: '3', attributes: { name: 'x' } } }],
      [{ op: 'remove', ref: { type: 'employees', id: '5' } }],
      [{ op: 'add', data: { type: 'employees', lid: 'e', attributes: { name: 'x', company_id: 1 } } }, { op: 'update', data: { type: 'employees', lid: 'e', attributes: { company_id: 2 } } }],
      [{ op: 'add', ref: { type: 'employees', id: '1', relationship: 'teams' }, data: [{ type: 'teams', id: '3' }] }],
    ];
    for (const ops of operations) {
      const response = await http.request('POST', '/t/operations', { 'atomic:operations': ops }, { ...atomic, ...as(acme) });
      t.true([403, 404].includes(response.status), `${JSON.stringify(ops)}: ${response.status} ${response.text.slice(0, 200)}`);
    }
    t.deepEqual(await snapshot(), before);
  });

  async function refused(t: ExecutionContext, method: string, path: string, body: unknown, user: TenantUser): Promise<void> {
    const response = await http.request(method, path, body, as(user));
    t.true([403, 404].includes(response.status), `${method} ${path}: ${response.status} ${response.text.slice(0, 200)}`);
  }
}
