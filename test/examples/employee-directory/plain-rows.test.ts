import test from 'ava';
import { parseQueryString, withContext } from '../../../core/index.ts';
import { canUsePlainRecords } from '../../../core/query/plain-records.ts';
import { testDatabases } from '../../support/databases.ts';
import { directoryServer } from '../../support/directory-server.ts';
import { ADMIN } from '../../support/example-auth.ts';

/**
 * A render-only load (HTTP, or `toJsonapi()` first) reads plain rows when no
 * user code needs a model; after `data` the proxy renders model instances.
 * Both must produce the same document on every database, for every type.
 */
const queries = [
  '/api/v1/employees?include=positions.department,teams,tasks.milestones,current_position&page[size]=15&extra_fields[employees]=vacation_days',
  '/api/v1/positions?include=employee,department&filter[active]=true&sort=-rank&page[size]=25',
  '/api/v1/notes?include=notable&page[size]=30&sort=-id',
  '/api/v1/tasks?include=milestones,employee&page[size]=30',
  '/api/v1/teams?include=employees&page[size]=5',
  '/api/v1/departments?include=positions&page[size]=5&page[positions][size]=2',
  '/api/v1/employees?include=positions&page[positions][size]=1&sort=-positions.rank&page[size]=10',
];

for (const db of testDatabases()) {
  const { dir, client } = directoryServer(db, 'plain_rows', 40);

  test(`${db.name}: the example's Resources qualify for plain rows, except where a block needs a model`, (t) => {
    const { EmployeeResource, PositionResource, TaskResource, NoteResource } = dir.resources;
    t.true(canUsePlainRecords(EmployeeResource, new Set()));
    t.false(canUsePlainRecords(EmployeeResource, new Set(['vacation_days'])), 'vacation_days is computed by a block');
    t.true(canUsePlainRecords(PositionResource));
    t.true(canUsePlainRecords(TaskResource));
    t.true(canUsePlainRecords(NoteResource));
  });

  for (const path of queries) {
    test(`${db.name}: HTTP and in-process agree on ${path.split('?')[0]}?${decodeURIComponent(path.split('?')[1]!).slice(0, 60)}`, async (t) => {
      const http = (await client.get(path, ADMIN)).body as Record<string, unknown>;
      const type = path.split('?')[0]!.split('/').pop()!;
      const resource = Object.values(dir.resources).find((r) => r.type === type)!;
      // reading `data` first makes the proxy load model instances, which toJsonapi then renders
      const local = await withContext({ role: 'admin' }, async () => {
        const proxy = resource.all(parseQueryString(path.split('?')[1]!));
        await proxy.data;
        return proxy.toJsonapi();
      });
      // what only HTTP adds: pagination links and the version it negotiated
      delete http.links;
      t.deepEqual(http.jsonapi, { version: '1.1' });
      delete http.jsonapi;
      t.deepEqual(http, JSON.parse(JSON.stringify(local)));
    });
  }
}
