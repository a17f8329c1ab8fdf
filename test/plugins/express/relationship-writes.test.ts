import test from 'ava';
import express from 'express';
import { muralRouter } from '../../../plugins/express/index.ts';
import { configureSqlite } from '../../../plugins/sequelize/index.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, tableCounts, type Directory } from '../../support/directory.ts';
import { serve, type HttpClient } from '../../support/http.ts';
import { sqliteFileDatabase } from '../../support/sqlite-file.ts';
import { ADMIN } from '../../support/example-auth.ts';

type Doc = { data?: unknown; links?: Record<string, string>; meta?: unknown; errors?: Array<{ status: string; code: string; source?: Record<string, unknown>; meta?: Record<string, unknown> }> };

const teams = (...ids: number[]) => ({ data: ids.map((id) => ({ type: 'teams', id: String(id) })) });
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/**
 * PATCH, POST and DELETE on `{ns}/{type}/{id}/relationships/{relationship}`,
 * per JSON:API 1.1 "Updating Relationships". SQLite runs on a file too,
 * where every transaction gets its own connection, as under `npm start`.
 */
const file = sqliteFileDatabase();
test.after.always(() => file.remove());

for (const db of [file, ...testDatabases('relationship_writes')]) {
  const label = db === file ? 'sqlite file' : db.name;
  let dir: Directory;
  let client: HttpClient;
  test.before(async () => {
    dir = await openDirectory(db, 'relationship_writes', 40);
    configureSqlite(dir.sequelize, { writeQueueTimeout: 60_000 });
    const { TeamResource } = dir.resources;
    class ReadOnlyTeam extends TeamResource {
      static {
        this.type = 'read_only_teams';
        this.endpointNamespace = '/read-only';
        this.primaryEndpoint('/teams', ['index', 'show']);
      }
    }
    const app = express();
    app.use(muralRouter({ resources: [ReadOnlyTeam] }));
    app.use(dir.app);
    client = await serve(app);
  });
  test.after.always(async () => {
    await client?.close();
    await dir?.sequelize.close();
  });
  const teamsOf = async (employee: number) => (await dir.models.EmployeeTeam.findAll({ where: { employee_id: employee }, order: [['team_id', 'ASC']] })).map((m) => m.team_id);
  const send = (method: string, path: string, body: unknown, headers?: Record<string, string>) => client.request(method, `/api/v1${path}`, body, headers);

  test.serial(`${label}: POST, DELETE and PATCH answer 204 No Content when the relationship is what they said`, async (t) => {
    const start = await teamsOf(1);
    const [a, b] = [1, 2, 3, 4].filter((id) => !start.includes(id));
    const added = await send('POST', '/employees/1/relationships/teams', teams(a!, b!));
    t.is(added.status, 204);
    t.is(added.text, '');
    t.is(added.contentType, null);
    t.deepEqual(await teamsOf(1), [...start, a!, b!].sort((x, y) => x - y));
    t.is((await send('DELETE', '/employees/1/relationships/teams', teams(a!, 23))).status, 204, 'a record that is no member is already absent');
    t.is((await send('PATCH', '/employees/1/relationships/teams', teams(b!, 5))).status, 204);
    t.deepEqual(await teamsOf(1), [b!, 5].sort((x, y) => x - y));
    const linkage = (await client.get('/api/v1/employees/1/relationships/teams')).body as Doc;
    t.deepEqual(linkage.data, [b!, 5].sort((x, y) => x - y).map((id) => ({ type: 'teams', id: String(id) })));
    t.is((await send('PATCH', '/positions/1/relationships/department', { data: null })).status, 204);
    t.is((await dir.models.Position.findByPk(1))!.department_id, null);
    t.is((await send('PATCH', '/positions/1/relationships/department', { data: { type: 'departments', id: '2' } })).status, 204);
  });

  test.serial(`${label}: a result other than the request (a params block hides the member) is a 200 with the linkage`, async (t) => {
    const inactive = (await dir.models.Position.findOne({ where: { employee_id: 3, active: false } }))!;
    const response = await send('PATCH', '/employees/2/relationships/current_position', { data: { type: 'positions', id: String(inactive.id) } });
    t.is(response.status, 200);
    t.deepEqual(response.body, {
      data: null, meta: {}, links: { self: '/api/v1/employees/2/relationships/current_position', related: '/api/v1/employees/2/current_position' },
      jsonapi: { version: '1.1' },
    });
    t.is((await dir.models.Position.findByPk(inactive.id))!.employee_id, 2);
  });

  test.serial(`${label}: refusals, each a JSON:API error with the right status, nothing written`, async (t) => {
    const before = await tableCounts(dir.models);
    const cases: Array<[string, string, unknown, number, string, Record<string, unknown>?, Record<string, string>?]> = [
      ['POST', '/employees/4/relationships/current_position', { data: { type: 'positions', id: '1' } }, 403, 'unsupported_operation'],
      ['DELETE', '/positions/4/relationships/employee', { data: { type: 'employees', id: '1' } }, 403, 'unsupported_operation'],
      ['PATCH', '/notes/1/relationships/notable', { data: { type: 'teams', id: '1' } }, 403, 'forbidden'],
      ['POST', '/employees/4/relationships/positions', { data: [{ type: 'teams', id: '1' }] }, 409, 'conflict', { pointer: '/data/0/type' }],
      ['POST', '/employees/4/relationships/positions', { data: [{ type: 'positions', id: '1' }, { type: 'positions', id: '99999' }] }, 404, 'not_found', { pointer: '/data/1' }],
      ['POST', '/employees/99999/relationships/positions', { data: [{ type: 'positions', id: '1' }] }, 404, 'not_found'],
      ['POST', '/employees/4/relationships/bosses', { data: [] }, 404, 'not_found'],
      // a guest may neither read nor write notes: the 404 of bosses, not a 422 that would say it exists
      ['POST', '/employees/4/relationships/notes', { data: [{ type: 'notes', id: '1' }] }, 404, 'not_found'],
      ['POST', '/employees/4/relationships/positions', '{"data": [', 400, 'invalid_json', { pointer: '' }],
      ['PATCH', '/employees/4/relationships/positions', { data: { type: 'positions', id: '1' } }, 400, 'invalid_relationship', { pointer: '/data' }],
      ['PATCH', '/employees/4/relationships/current_position', { data: [] }, 400, 'invalid_relationship', { pointer: '/data' }],
      ['POST', '/employees/4/relationships/positions', { data: [{ type: 'positions', id: 'one' }] }, 400, 'type_error', { pointer: '/data/0/id' }],
      // a note cannot lose its notable (notable_id is NOT NULL): the member is invalid at its identifier, the write rolls back
      ['DELETE', '/employees/1/relationships/notes', { data: [{ type: 'notes', id: '1' }] }, 422, 'unprocessable_entity', { pointer: '/data/0' }, ADMIN],
    ];
    for (const [method, path, body, status, code, source, headers] of cases) {
      const response = await send(method, path, body, headers);
      const error = (response.body as Doc).errors![0]!;
      t.is(response.status, status, `${method} ${path}`);
      t.like(error, { status: String(status), code }, `${method} ${path}`);
      if (source) t.deepEqual(error.source, source, `${method} ${path}`);
    }
    t.deepEqual(await tableCounts(dir.models), before);
    t.like((await dir.models.Note.findByPk(1))!.get(), { notable_type: 'employees', notable_id: 1 });
    t.is((await send('POST', '/employees/4/relationships/notes', { data: [{ type: 'notes', id: '3' }] }, ADMIN)).status, 204, 'an admin may');
  });

  test.serial(`${label}: writes are routed where the Resource updates its records, reads where it shows them`, async (t) => {
    t.is((await client.get('/read-only/teams/1/relationships/employees')).status, 200);
    const refused = await client.request('POST', '/read-only/teams/1/relationships/employees', { data: [] });
    t.is(refused.status, 404);
    t.is((refused.body as Doc).errors![0]!.code, 'not_found');
  });

  test.serial(`${label}: SQL: the parent, locked, and the named members in one query, however many`, async (t) => {
    const statements = async (ids: number[]) => {
      await send('PATCH', '/employees/6/relationships/teams', teams());
      dir.resetQueries();
      t.is((await send('POST', '/employees/6/relationships/teams', teams(...ids))).status, 204);
      const reads = dir.queries.filter((q) => /^Executing \([^)]*\): SELECT /.test(q) && !q.includes('SELECT 1 AS found'));
      return { reads, joinRows: dir.queries.filter((q) => q.includes('INTO `employee_teams`') || q.includes('INTO "employee_teams"')).length };
    };
    const one = await statements([7]);
    const many = await statements([7, 8, 9, 10]);
    // the parent, the members, then (after the commit) the check that the relationship holds them
    t.is(one.reads.length, 3);
    t.is(many.reads.length, 3);
    t.deepEqual([one.joinRows, many.joinRows], [1, 4]);
    if (db.name !== 'sqlite') t.regex(one.reads[0]!, /FOR UPDATE/);
  });

  test.serial(`${label}: concurrent writes to one relationship: each whole, one after the other`, async (t) => {
    const adds = await Promise.all(range(12).map((i) => send('POST', '/employees/8/relationships/teams', teams(i + 1))));
    t.deepEqual(adds.map((r) => r.status), range(12).map(() => 204));
    t.deepEqual((await teamsOf(8)).filter((id) => id <= 12), range(12).map((i) => i + 1));
    const sets = range(10).map((i) => [13 + (i % 5), 18 + (i % 6)]);
    const replaces = await Promise.all(sets.map((set) => send('PATCH', '/employees/8/relationships/teams', teams(...set))));
    // a later replacement may land before the check of an earlier one: then 200 with what the relationship holds
    t.true(replaces.every((r) => r.status === 204 || r.status === 200), replaces.map((r) => r.status).join());
    const final = await teamsOf(8);
    t.true(sets.some((set) => JSON.stringify([...set].sort((a, b) => a - b)) === JSON.stringify(final)), `one whole replacement, not a mix: ${final.join()}`);
  });
}
