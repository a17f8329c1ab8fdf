import test from 'ava';
import { testDatabases } from '../../support/databases.ts';
import { exampleApi } from '../../support/example-api.ts';
import { ADMIN } from '../../support/example-auth.ts';

type Resource = { id: string; type: string; attributes: Record<string, unknown> };
type Doc = { data: Resource[]; meta: { stats?: Record<string, Record<string, number>> }; links?: Record<string, string> };

/** The example application's read API as a client sees it, on every database. */
for (const db of testDatabases()) {
  const get = exampleApi<Doc>(db, 'example_read_api');

  test(`${db.name}: employees list 20 at a time, sorted by last name, with pagination links`, async (t) => {
    const { status, body } = await get('/api/v1/employees');
    t.is(status, 200);
    t.is(body.data.length, 20);
    const lastNames = body.data.map((e) => String(e.attributes.last_name));
    t.deepEqual(lastNames, [...lastNames].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    t.is(body.links!.last, '/api/v1/employees?page[number]=15&page[size]=20');
  });

  test(`${db.name}: Ada Lovelace is employee 1; salary shows only to admins`, async (t) => {
    const guest = await get('/api/v1/employees/1');
    t.like(guest.body.data, { id: '1', type: 'employees', attributes: { first_name: 'Ada', last_name: 'Lovelace' } });
    t.false('salary' in (guest.body.data as unknown as Resource).attributes);
    const admin = await get('/api/v1/employees/1', ADMIN);
    t.regex(String((admin.body.data as unknown as Resource).attributes.salary), /^\d+(\.\d{1,2})?$/);
  });

  test(`${db.name}: guests cannot filter or sort by salary; admins can`, async (t) => {
    t.is((await get('/api/v1/employees?filter[salary][gt]=100000')).status, 400);
    t.is((await get('/api/v1/employees?sort=-salary')).status, 400);
    const admin = await get('/api/v1/employees?filter[salary][gt]=100000&sort=-salary&page[size]=3', ADMIN);
    t.is(admin.status, 200);
    const salaries = admin.body.data.map((e) => Number(e.attributes.salary));
    t.true(salaries.every((s) => s > 100000));
    t.deepEqual(salaries, [...salaries].sort((a, b) => b - a));
  });

  test(`${db.name}: the name filter and sort search both name columns`, async (t) => {
    const { body } = await get('/api/v1/employees?filter[name][prefix]=Lovel&sort=name&fields[employees]=first_name,last_name');
    t.true(body.data.length >= 1);
    t.true(body.data.every((e) => String(e.attributes.last_name).startsWith('Lovel') || String(e.attributes.first_name).startsWith('Lovel')));
  });

  test(`${db.name}: age stats cover the filtered set, whatever the page`, async (t) => {
    const { body } = await get('/api/v1/employees?filter[age][gte]=60&stats[age]=minimum,maximum&stats[total]=count&page[size]=1');
    const stats = body.meta.stats!;
    t.true(stats.age!.minimum! >= 60);
    t.true(stats.age!.maximum! <= 65);
    t.true(stats.total!.count! > 1);
    t.is(body.data.length, 1);
  });

  test(`${db.name}: vacation_days is an extra attribute`, async (t) => {
    const plain = await get('/api/v1/employees/1');
    t.false('vacation_days' in (plain.body.data as unknown as Resource).attributes);
    const extra = await get('/api/v1/employees/1?extra_fields[employees]=vacation_days');
    t.is(typeof (extra.body.data as unknown as Resource).attributes.vacation_days, 'number');
  });

  test(`${db.name}: positions filter by employee and by a null department`, async (t) => {
    const mine = await get('/api/v1/positions?filter[employee_id]=1');
    t.true(mine.body.data.length >= 1);
    const orphans = await get('/api/v1/positions?filter[department_id]=null&stats[total]=count&page[size]=0');
    t.true(orphans.body.meta.stats!.total!.count! > 0);
    t.deepEqual(orphans.body.data, []);
    t.false('employee_id' in (mine.body.data[0]!.attributes), 'foreign keys are filter-only');
  });

  test(`${db.name}: departments are served too`, async (t) => {
    const { body } = await get('/api/v1/departments?sort=name&fields[departments]=name');
    t.deepEqual(body.data.map((d) => d.attributes.name), ['Design', 'Engineering', 'Finance', 'Marketing', 'Operations', 'People', 'Research', 'Sales']);
  });
}
