import test from 'ava';
import { directoryServer } from '../../support/directory-server.ts';

type ErrorDoc = { errors: Array<Record<string, unknown>> };

/**
 * The query limits of a Resource, as a client meets them: each is a 400 with
 * its own code naming the parameter to fix, refused before any SQL runs.
 * (Validation only: SQLite stands for every database here.)
 */
const { dir, client } = directoryServer({ name: 'sqlite', url: ':memory:' }, 'query_limits', 30);

/** `beforeAnyQuery: false` for deep parameters, which are checked once the parent records are known. */
async function refused(t: import('ava').ExecutionContext, path: string, beforeAnyQuery = true): Promise<Record<string, unknown>> {
  dir.resetQueries();
  const response = await client.get(path);
  t.is(response.status, 400, path);
  if (beforeAnyQuery) t.deepEqual(dir.queries, [], 'refused before any query');
  const { errors } = response.body as ErrorDoc;
  t.is(errors.length, 1);
  return errors[0]!;
}

test.serial('page[size] above maxPageSize (default 1000)', async (t) => {
  t.like(await refused(t, '/api/v1/employees?page[size]=1001'), {
    status: '400', code: 'page_size_exceeded', detail: 'Page size 1001 is above the maximum of 1000', source: { parameter: 'page[size]' },
  });
  t.is((await client.get('/api/v1/employees?page[size]=1000')).status, 200);
});

test.serial("page[<type>][size] above the included Resource's maxPageSize", async (t) => {
  t.like(await refused(t, '/api/v1/employees?include=positions&page[positions][size]=1001', false), {
    status: '400', code: 'page_size_exceeded', source: { parameter: 'page[positions][size]' },
  });
});

test.serial('an include path deeper than maxIncludeDepth (default 5)', async (t) => {
  t.like(await refused(t, '/api/v1/employees?include=positions.employee.positions.employee.positions.employee'), {
    status: '400', code: 'include_too_deep', source: { parameter: 'include' },
  });
  t.is((await client.get('/api/v1/employees?include=positions.employee.positions.employee.positions')).status, 200);
});

test.serial('more include paths than maxIncludes (default 30), even repeated ones', async (t) => {
  const paths = Array.from({ length: 31 }, () => 'positions').join(',');
  t.like(await refused(t, `/api/v1/employees?include=${paths}`), {
    status: '400', code: 'too_many_includes', detail: 'Include names 31 paths; the maximum is 30', source: { parameter: 'include' },
  });
});

test.serial('more included relationships than maxIncludes, counting every level of the tree', async (t) => {
  const employees = dir.resources.EmployeeResource;
  employees.maxIncludes = 3;
  try {
    t.is((await client.get('/api/v1/employees?include=positions.department.teams')).status, 200, 'three relationships');
    t.like(await refused(t, '/api/v1/employees?include=positions.department.teams,teams'), {
      status: '400', code: 'too_many_includes', detail: 'Include names 4 relationships; the maximum is 3', source: { parameter: 'include' },
    });
  } finally {
    employees.maxIncludes = 30;
  }
});

test.serial('more values in one filter than maxFilterValues (default 1000)', async (t) => {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1).join(',');
  t.like(await refused(t, `/api/v1/employees?filter[id]=${ids(1001)}`), {
    status: '400', code: 'too_many_filter_values', detail: 'filter[id] has more than 1000 values; the maximum is 1000', source: { parameter: 'filter[id]' },
  });
  t.is((await client.get(`/api/v1/employees?filter[id]=${ids(1000)}`)).status, 200);
});

test.serial('the value limit names operator and deep filter parameters', async (t) => {
  const positions = dir.resources.PositionResource;
  positions.maxFilterValues = 2;
  try {
    t.like(await refused(t, '/api/v1/positions?filter[id][not_eq]=1,2,3'), { code: 'too_many_filter_values', source: { parameter: 'filter[id][not_eq]' } });
    t.like(await refused(t, '/api/v1/employees?include=positions&filter[positions.id]=1,2,3', false), {
      code: 'too_many_filter_values', source: { parameter: 'filter[positions.id]' },
    });
    t.like(await refused(t, '/api/v1/positions?filter[title][]=a&filter[title][]=b&filter[title][]=c'), { code: 'too_many_filter_values' });
  } finally {
    positions.maxFilterValues = 1000;
  }
});

test.serial('a sort naming one attribute twice, in either direction', async (t) => {
  t.like(await refused(t, '/api/v1/employees?sort=last_name,-last_name'), {
    status: '400', code: 'duplicate_sort', detail: 'sort names "last_name" more than once', source: { parameter: 'sort' },
  });
  // the attack this stops: one related sort repeated up to the URL limit, each copy a chain of subqueries per row
  const chain = 'employee.current_position.employee.current_position.department.name';
  t.like(await refused(t, `/api/v1/positions?sort=${Array(60).fill(chain).join(',')}`), { code: 'duplicate_sort', source: { parameter: 'sort' } });
  t.like(await refused(t, '/api/v1/employees?include=positions&sort=positions.title,-positions.title', false), {
    code: 'duplicate_sort', source: { parameter: 'sort' },
  });
});

test.serial('more than 3 related attributes in one sort', async (t) => {
  const related = ['department.name', 'employee.last_name', 'employee.first_name', 'employee.age'];
  t.like(await refused(t, `/api/v1/positions?sort=${related.join(',')}`), {
    status: '400', code: 'too_many_related_sorts', detail: 'sort names more than 3 related attributes', source: { parameter: 'sort' },
  });
  // plain sorts do not count against it
  const response = await client.get(`/api/v1/positions?sort=${related.slice(0, 3).join(',')},title,-rank&page[size]=5`);
  t.is(response.status, 200);
  t.is((response.body as { data: unknown[] }).data.length, 5);
});

test('100,000 values in one filter are refused, not split and bound', async (t) => {
  const { Employee } = dir.models;
  const { EmployeeResource } = dir.resources;
  const values = Array.from({ length: 100_000 }, (_, i) => i).join(',');
  const error = await t.throwsAsync(EmployeeResource.all({ filter: { id: values } }).data);
  t.is((error as { code?: string }).code, 'too_many_filter_values');
  t.true((await Employee.count()) > 0);
});
