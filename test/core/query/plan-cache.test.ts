import test from 'ava';
import { withContext, type QueryParams } from '../../../core/index.ts';
import { MAX_CACHED_PLANS, cachedPlanCount, plannedQuery } from '../../../core/query/plan-cache.ts';
import { directoryServer } from '../../support/directory-server.ts';
import { ADMIN as ADMIN_HEADERS } from '../../support/example-auth.ts';

/**
 * Plans are remembered per Resource and query, and reused only while every
 * guard consulted to build one answers the same for the request at hand.
 * (Validation only: SQLite stands for every database here.)
 */
const { dir, client } = directoryServer({ name: 'sqlite', url: ':memory:' }, 'plan_cache', 30);

const ADMIN = { role: 'admin' };
const employees = () => new dir.resources.EmployeeResource();

test.serial('the same query is planned once and reused', (t) => {
  const params = { include: 'positions.department', sort: '-age', page: { size: 5 } };
  const first = plannedQuery(employees(), params);
  t.is(plannedQuery(employees(), { include: 'positions.department', sort: '-age', page: { size: 5 } }), first);
  t.not(plannedQuery(employees(), { ...params, sort: 'age' }), first, 'another query, another plan');
});

test.serial('a guard answering otherwise for this request means a plan of its own, either way round', (t) => {
  const included = () => plannedQuery(employees(), { include: 'notes' }).include.map((node) => node.name);
  const asAdmin = () => withContext(ADMIN, included);
  t.deepEqual(asAdmin(), ['notes']);
  t.deepEqual(included(), [], 'a guest never gets the guarded include an admin asked for before');
  t.deepEqual(asAdmin(), ['notes']);
  t.deepEqual(included(), []);
});

test.serial('a refused sort is refused for a guest after an admin ran the same query, and allowed again for the admin', (t) => {
  const params = { sort: '-salary' };
  t.is(withContext(ADMIN, () => plannedQuery(employees(), params)).sorts[0]!.name, 'salary');
  t.throws(() => plannedQuery(employees(), params), { message: /salary/ });
  t.is(withContext(ADMIN, () => plannedQuery(employees(), params)).sorts[0]!.name, 'salary');
});

test.serial('a Resource setting changed at runtime applies to the next request', (t) => {
  const resource = dir.resources.EmployeeResource;
  const params = { page: { size: 40 } };
  t.is(plannedQuery(employees(), params).page!.size, 40);
  const before = resource.maxPageSize;
  resource.maxPageSize = 30;
  try {
    t.throws(() => plannedQuery(employees(), params), { message: 'Page size 40 is above the maximum of 30' });
  } finally {
    resource.maxPageSize = before;
  }
  t.is(plannedQuery(employees(), params).page!.size, 40);
});

test.serial("a caller changing its parameters afterwards does not change the plan another request reuses", (t) => {
  const query = (): QueryParams => ({ filter: { first_name: ['Ada', 'Grace'], 'positions.title': ['Engineer'] }, include: 'positions', sort: 'age' });
  const params = query();
  const plan = plannedQuery(employees(), params);
  (params.filter!.first_name as string[]).push('Katherine');
  (params.filter!['positions.title'] as string[]).push('Manager');
  const again = plannedQuery(employees(), query());
  t.is(again, plan);
  t.deepEqual(again.filters.map((f) => f.values), [['Ada', 'Grace']]);
  t.deepEqual({ ...again.nodeParams.get(again.include[0]!)!.filter }, { title: ['Engineer'] }, 'the deep filter as first sent');
});

test.serial('a reused plan is frozen: a stage that tried to change it would fail loudly', (t) => {
  const plan = plannedQuery(employees(), { filter: { age: { gte: '30' } }, include: 'positions' });
  t.true(Object.isFrozen(plan));
  t.true(Object.isFrozen(plan.filters[0]!.values));
  t.true(Object.isFrozen(plan.include[0]!.children));
});

test.serial('parameters that are not plain data are planned every time, never remembered', (t) => {
  const at = new Date('2020-01-01T00:00:00Z');
  const params = { filter: { created_at: { gte: at } } } as unknown as QueryParams;
  t.not(plannedQuery(employees(), params), plannedQuery(employees(), params));
});

test.serial(`at most ${MAX_CACHED_PLANS} plans per Resource: endless distinct queries cost builds, not memory`, (t) => {
  for (let i = 0; i < MAX_CACHED_PLANS + 50; i++) plannedQuery(employees(), { filter: { age: String(i) } });
  t.is(cachedPlanCount(dir.resources.EmployeeResource), MAX_CACHED_PLANS);
});

test.serial('over HTTP, guests and admins sending the same queries at once each get their own answer', async (t) => {
  // each path, and the status a guest gets (an admin always gets 200)
  const paths: Array<[string, number]> = [
    ['/api/v1/employees?sort=-salary&fields[employees]=first_name,salary&include=notes', 400],
    ['/api/v1/employees/1?include=notes&fields[employees]=salary', 200],
    ['/api/v1/employees?page[size]=5&include=notes', 200],
    ['/api/v1/teams?include=employees&sort=-employees.salary', 400],
  ];
  const requests = Array.from({ length: 80 }, (_, i) => ({ path: paths[i % 4]![0], guestStatus: paths[i % 4]![1], admin: i % 8 < 4 }));
  const answers = await Promise.all(requests.map(({ path, admin }) => client.get(path, admin ? ADMIN_HEADERS : {})));
  answers.forEach((answer, i) => {
    const { admin, guestStatus } = requests[i]!;
    if (admin) {
      t.is(answer.status, 200, answer.text.slice(0, 200));
      t.regex(answer.text, /"salary":/);
    } else {
      t.is(answer.status, guestStatus, answer.text.slice(0, 200));
      t.notRegex(answer.text, /"salary"|"notes"|\/notes/);
    }
  });
});

test.serial("an included relationship's plan follows its guards too: a deep sort an admin may use stays refused for a guest", async (t) => {
  const path = '/api/v1/teams?include=employees&sort=-employees.salary';
  for (const admin of [true, false, true, false]) {
    const answer = await client.get(path, admin ? ADMIN_HEADERS : {});
    t.is(answer.status, admin ? 200 : 400, answer.text.slice(0, 200));
    if (admin) t.regex(answer.text, /"salary":/);
    else t.is((answer.body as { errors: Array<{ code: string }> }).errors[0]!.code, 'unknown_sort');
  }
});
