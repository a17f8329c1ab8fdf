import test from 'ava';
import { testDatabases } from '../../support/databases.ts';
import { exampleApi } from '../../support/example-api.ts';
import { ADMIN } from '../../support/example-auth.ts';

type Resource = { id: string; type: string; attributes: Record<string, unknown>; relationships?: Record<string, { data?: unknown }> };
type Doc = {
  data: Resource[];
  included?: Resource[];
  meta: { stats?: Record<string, Record<string, number>> };
  links?: Record<string, string>;
  errors?: Array<{ code?: string; source?: { parameter?: string } }>;
};

/** `filter[has]`, `filter[has_no]` and related sorts as the README shows them, over HTTP, on every database. */
for (const db of testDatabases()) {
  const get = exampleApi<Doc>(db, 'example_related_filters', { employees: 120 });
  const ids = (doc: Doc) => doc.data.map((r) => Number(r.id));

  test(`${db.name}: employees with an Engineering position; the included positions stay unfiltered`, async (t) => {
    const { status, body } = await get('/api/v1/employees?filter[has][positions.department.name]=Engineering&include=positions.department&page[size]=100&sort=id');
    t.is(status, 200);
    t.true(body.data.length > 0);
    const departmentOf = new Map((body.included ?? []).filter((r) => r.type === 'positions').map((p) => [p.id, (p.relationships!.department!.data as { id: string } | null)?.id]));
    const names = new Map((body.included ?? []).filter((r) => r.type === 'departments').map((d) => [d.id, String(d.attributes.name)]));
    for (const employee of body.data) {
      const positions = (employee.relationships!.positions!.data as Array<{ id: string }>).map((p) => names.get(departmentOf.get(p.id) ?? ''));
      t.true(positions.includes('Engineering'), `employee ${employee.id} has an Engineering position`);
    }
    t.true(body.data.some((e) => (e.relationships!.positions!.data as unknown[]).length > 1), 'every position is included, not only the matching one');
  });

  test(`${db.name}: filter[positions.title] still filters the included positions, not the employees`, async (t) => {
    const deep = await get('/api/v1/employees?include=positions&filter[positions.title]=zzz-none&page[size]=5');
    t.is(deep.body.data.length, 5);
    t.deepEqual(deep.body.included ?? [], []);
    const has = await get('/api/v1/employees?filter[has][positions.title]=zzz-none');
    t.deepEqual(has.body.data, []);
  });

  test(`${db.name}: has and has_no split the employees; pagination links and counts count each employee once`, async (t) => {
    const all = await get('/api/v1/employees?stats[total]=count&page[size]=1');
    const has = await get('/api/v1/employees?filter[has][positions.active]=true&stats[total]=count&page[size]=7');
    const hasNo = await get('/api/v1/employees?filter[has_no][positions.active]=true&stats[total]=count&page[size]=7');
    const total = (doc: Doc) => doc.meta.stats!.total!.count!;
    t.is(total(has.body) + total(hasNo.body), total(all.body));
    t.true(total(hasNo.body) > 0);
    t.regex(has.body.links!.last!, new RegExp(`page\\[number\\]=${Math.ceil(total(has.body) / 7)}&page\\[size\\]=7`));
    t.is(new Set(ids(has.body)).size, has.body.data.length);
  });

  test(`${db.name}: many_to_many, belongs_to and the admin-only polymorphic notes`, async (t) => {
    const teams = await get('/api/v1/employees?filter[has][teams.name][suffix]=platform&filter[age][gte]=30&page[size]=100');
    t.is(teams.status, 200);
    t.true(teams.body.data.every((e) => Number(e.attributes.age) >= 30));
    const positions = await get('/api/v1/positions?filter[has][department.name][prefix]=eng&include=department&page[size]=100');
    t.true(positions.body.data.length > 0);
    t.true((positions.body.included ?? []).every((d) => d.attributes.name === 'Engineering'));
    const guest = await get('/api/v1/employees?filter[has][notes.body][match]=a');
    t.is(guest.status, 400);
    t.like(guest.body.errors![0], { code: 'unknown_filter', source: { parameter: 'filter[has][notes.body]' } });
    const admin = await get('/api/v1/employees?filter[has][notes.body][match]=a', ADMIN);
    t.is(admin.status, 200);
  });

  test(`${db.name}: a guarded related attribute answers as an unknown filter, status and pointer alike`, async (t) => {
    const salary = await get('/api/v1/positions?filter[has][employee.salary][gt]=1');
    const wage = await get('/api/v1/positions?filter[has][employee.wage][gt]=1');
    t.is(salary.status, 400);
    t.is(wage.status, 400);
    t.like(salary.body.errors![0], { code: 'unknown_filter', source: { parameter: 'filter[has][employee.salary]' } });
    t.like(wage.body.errors![0], { code: 'unknown_filter', source: { parameter: 'filter[has][employee.wage]' } });
    const admin = await get('/api/v1/positions?filter[has][employee.salary][gt]=1', ADMIN);
    t.is(admin.status, 200);
  });

  test(`${db.name}: positions sort by their department's name, positions without one last`, async (t) => {
    const { status, body } = await get('/api/v1/positions?sort=department.name&include=department&page[size]=500');
    t.is(status, 200);
    const names = body.data.map((p) => {
      const id = (p.relationships!.department!.data as { id: string } | null)?.id;
      return id === undefined ? null : String(body.included!.find((d) => d.type === 'departments' && d.id === id)!.attributes.name);
    });
    const present = names.filter((n): n is string => n !== null);
    t.deepEqual(present, [...present].sort());
    t.deepEqual(names.slice(present.length), names.filter((n) => n === null));
    t.true(present.length < names.length);
    const refused = await get('/api/v1/employees?sort=teams.name.size');
    t.is(refused.status, 400);
  });
}
