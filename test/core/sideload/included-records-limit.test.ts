import test from 'ava';
import { Op } from 'sequelize';
import { configure } from '../../../core/index.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, type Directory } from '../../support/directory.ts';
import { serve, type HttpClient } from '../../support/http.ts';

type Doc = { data: unknown[]; included?: Array<{ type: string }>; errors?: Array<Record<string, unknown>> };

const FIRST_TWENTY = Array.from({ length: 20 }, (_, i) => i + 1).join(',');

/**
 * maxIncludedRecords caps the records one request sideloads. Over the cap is a
 * 400 naming `include`, never a silently shortened `included`; each sideload
 * query asks for at most the remaining budget plus one, so a request over the
 * cap is refused without loading everything first.
 */
for (const db of testDatabases('included_records_limit')) {
  let dir: Directory;
  let client: HttpClient;
  let positionsOfFirstTwenty: number;

  test.before(async () => {
    dir = await openDirectory(db, 'included_records_limit', 120);
    client = await serve(dir.app);
    positionsOfFirstTwenty = await dir.models.Position.count({ where: { employee_id: { [Op.lte]: 20 } } });
  });
  test.after.always(async () => {
    await client?.close();
    await dir?.sequelize.close();
  });
  test.afterEach.always(() => {
    dir.resources.EmployeeResource.maxIncludedRecords = 10_000;
  });

  const get = async (path: string) => {
    const response = await client.get(path);
    return { status: response.status, body: response.body as Doc };
  };

  test.serial(`${db.name}: exactly the cap is served in full`, async (t) => {
    dir.resources.EmployeeResource.maxIncludedRecords = positionsOfFirstTwenty;
    const { status, body } = await get(`/api/v1/employees?filter[id]=${FIRST_TWENTY}&include=positions`);
    t.is(status, 200);
    t.is(body.data.length, 20);
    t.is(body.included!.filter((r) => r.type === 'positions').length, positionsOfFirstTwenty);
  });

  test.serial(`${db.name}: one record over the cap is a 400 naming include, with no partial document`, async (t) => {
    dir.resources.EmployeeResource.maxIncludedRecords = positionsOfFirstTwenty - 1;
    dir.resetQueries();
    const { status, body } = await get(`/api/v1/employees?filter[id]=${FIRST_TWENTY}&include=positions`);
    t.is(status, 400);
    t.deepEqual(body.errors, [
      {
        status: '400',
        code: 'too_many_included_records',
        title: 'Bad Request',
        detail: `The include would sideload more than ${positionsOfFirstTwenty - 1} records; ask for fewer (page[size], page[<type>][size], filters or fewer includes)`,
        source: { parameter: 'include' },
      },
    ]);
    t.false('data' in body);
    const sideload = dir.queries.find((sql) => /FROM "?`?positions/i.test(sql));
    t.regex(sideload ?? '', new RegExp(`LIMIT (0, )?${positionsOfFirstTwenty}\\b`), 'the positions query asks for at most the budget plus one');
  });

  test.serial(`${db.name}: the cap counts every level of a nested include`, async (t) => {
    dir.resources.EmployeeResource.maxIncludedRecords = positionsOfFirstTwenty;
    const { status, body } = await get(`/api/v1/employees?filter[id]=${FIRST_TWENTY}&include=positions.department`);
    t.is(status, 400);
    t.is(body.errors![0]!.code, 'too_many_included_records');
  });

  test.serial(`${db.name}: a later sideload only gets what the earlier ones left of the budget`, async (t) => {
    dir.resources.EmployeeResource.maxIncludedRecords = positionsOfFirstTwenty + 3;
    // the departments' query after the positions; one started beside them asks for the budget as it was then (nested-prefetch.test.ts)
    configure({ nestedPrefetch: 'never' });
    dir.resetQueries();
    const { status } = await get(`/api/v1/employees?filter[id]=${FIRST_TWENTY}&include=positions.department`).finally(() => configure({ nestedPrefetch: 'auto' }));
    t.is(status, 400);
    const departments = dir.queries.find((sql) => /FROM "?`?departments/i.test(sql));
    t.regex(departments ?? '', /LIMIT (0, )?4\b/);
  });

  test.serial(`${db.name}: page[<type>][size] narrows a request back under the cap`, async (t) => {
    dir.resources.EmployeeResource.maxIncludedRecords = 20;
    t.is((await get(`/api/v1/employees?filter[id]=${FIRST_TWENTY}&include=positions`)).status, 400);
    const narrowed = await get(`/api/v1/employees?filter[id]=${FIRST_TWENTY}&include=positions&page[positions][size]=1`);
    t.is(narrowed.status, 200);
    t.is(narrowed.body.included!.length, 20);
  });
}
