import test, { type ExecutionContext } from 'ava';
import express from 'express';
import { muralRouter } from '../../../plugins/express/index.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, type Directory } from '../../support/directory.ts';
import { serve, type HttpClient } from '../../support/http.ts';
import { ADMIN } from '../../support/example-auth.ts';

type Linkage = { type: string; id: string };
type Json = Record<string, unknown>;
type ResourceObject = { id: string; type: string; attributes: Json; relationships?: Record<string, { data?: Linkage | Linkage[] | null; links?: Json }> };
type Doc = { data: ResourceObject | ResourceObject[] | Linkage | Linkage[] | null; included?: ResourceObject[]; meta: Json; links?: Record<string, string>; errors?: Array<{ status: string; code: string; detail: string; source?: Json }> };

const identify = (o: { type: string; id: string }): Linkage => ({ type: o.type, id: o.id });

/** `GET {ns}/{type}/{id}/{relationship}` and `GET {ns}/{type}/{id}/relationships/{relationship}` on the example app. */
for (const db of testDatabases()) {
  let dir: Directory;
  let client: HttpClient;
  test.before(async () => {
    dir = await openDirectory(db, 'http_related', 60);
    const { TeamResource } = dir.resources;
    class TeamIndex extends TeamResource {
      static {
        this.type = 'team_index';
        this.endpointNamespace = '/other';
        this.primaryEndpoint('/team-index', ['index']);
      }
    }
    const app = express();
    app.use(muralRouter({ resources: [TeamIndex] }));
    app.use(dir.app);
    client = await serve(app);
  });
  test.after.always(async () => {
    await client?.close();
    await dir?.sequelize.close();
  });
  const get = async (path: string, headers?: Record<string, string>) => (await client.get(path, headers)).body as Doc;

  /** Both endpoints answer what include does for one record's relationship. */
  async function followsInclude(t: ExecutionContext, type: string, id: number, name: string, headers?: Record<string, string>): Promise<void> {
    const compound = await get(`/api/v1/${type}/${id}?include=${name}`, headers);
    const relationship = (compound.data as ResourceObject).relationships![name]!;
    const byKey = new Map((compound.included ?? []).map((o) => [`${o.type}:${o.id}`, o]));
    const related = await client.get(`/api/v1/${type}/${id}/${name}`, headers);
    const linkage = await client.get(`/api/v1/${type}/${id}/relationships/${name}`, headers);
    t.is(related.status, 200, `${type}/${id}/${name}`);
    t.is(linkage.status, 200);
    const body = related.body as Doc;
    if (Array.isArray(relationship.data)) {
      t.deepEqual(body.data, relationship.data.map((l) => byKey.get(`${l.type}:${l.id}`)), `${type}/${id}/${name}`);
      t.is(body.links!.first, `/api/v1/${type}/${id}/${name}?page[number]=1&page[size]=20`);
    } else {
      t.deepEqual(body.data, relationship.data === null ? null : byKey.get(`${relationship.data!.type}:${relationship.data!.id}`), `${type}/${id}/${name}`);
      t.is(body.links, undefined);
    }
    t.deepEqual((linkage.body as Doc).data, relationship.data);
    t.like((linkage.body as Doc).links, { related: `/api/v1/${type}/${id}/${name}` });
  }

  test(`${db.name}: every relationship of the example, to-one and to-many, answers what include gives`, async (t) => {
    const epic = (await dir.models.Task.findOne({ where: { type: 'epics' } }))!;
    const milestone = (await dir.models.Milestone.findOne())!;
    const noDepartment = (await dir.models.Position.findOne({ where: { department_id: null } }))!;
    for (const id of [1, 3, 11]) {
      for (const name of ['positions', 'current_position', 'teams', 'notes', 'tasks']) await followsInclude(t, 'employees', id, name, ADMIN);
    }
    for (const id of [1, noDepartment.id]) for (const name of ['employee', 'department']) await followsInclude(t, 'positions', id, name);
    for (const name of ['department', 'employees']) await followsInclude(t, 'teams', 2, name);
    for (const name of ['positions', 'teams']) await followsInclude(t, 'departments', 3, name);
    for (const id of [1, 40, 55]) await followsInclude(t, 'notes', id, 'notable', ADMIN);
    await followsInclude(t, 'tasks', epic.id, 'milestones');
    await followsInclude(t, 'epics', epic.id, 'milestones');
    await followsInclude(t, 'tasks', epic.id, 'employee');
    await followsInclude(t, 'milestones', milestone.id, 'epic');
  });

  test(`${db.name}: a to-one relationship answers one resource or null, with links to itself`, async (t) => {
    const active = (await dir.models.Position.findOne({ where: { employee_id: 2, active: true } }))!;
    t.deepEqual(identify((await get('/api/v1/employees/2/current_position')).data as ResourceObject), { type: 'positions', id: String(active.id) });
    t.deepEqual(await get('/api/v1/employees/11/current_position'), { data: null, meta: {}, jsonapi: { version: '1.1' } });
    t.deepEqual(await get('/api/v1/employees/11/relationships/current_position'), {
      data: null, meta: {}, links: { self: '/api/v1/employees/11/relationships/current_position', related: '/api/v1/employees/11/current_position' },
      jsonapi: { version: '1.1' },
    });
    const paged = await client.get('/api/v1/employees/2/current_position?page[size]=5');
    t.is(paged.status, 400);
    t.deepEqual((paged.body as Doc).errors![0]!.source, { parameter: 'page[size]' });
  });

  test(`${db.name}: every index parameter on a related endpoint, pagination links keeping them`, async (t) => {
    const memberships = await dir.models.EmployeeTeam.findAll();
    const size = (team: number) => memberships.filter((m) => m.team_id === team).length;
    const team = [...new Set(memberships.map((m) => m.team_id))].sort((a, b) => size(b) - size(a))[0]!;
    const members = memberships.filter((m) => m.team_id === team);
    const employees = (await dir.models.Employee.findAll({ where: { id: members.map((m) => m.employee_id) }, order: [['age', 'DESC'], ['id', 'ASC']] })).filter((e) => e.age !== null);
    t.true(employees.length >= 4, 'a team with two pages of members');
    const query = 'filter[age][gte]=1&sort=-age&page[size]=2&include=positions&fields[employees]=first_name,positions&fields[positions]=title&extra_fields[employees]=vacation_days&stats[total]=count';
    const doc = await get(`/api/v1/teams/${team}/employees?${query}`);
    t.deepEqual((doc.data as ResourceObject[]).map((e) => e.id), employees.slice(0, 2).map((e) => String(e.id)));
    t.deepEqual(Object.keys((doc.data as ResourceObject[])[0]!.attributes), ['first_name', 'vacation_days']);
    t.deepEqual(doc.meta, { stats: { total: { count: employees.length } } });
    t.true(doc.included!.length > 0 && doc.included!.every((p) => p.type === 'positions' && Object.keys(p.attributes).join() === 'title'));
    const kept = 'filter[age][gte]=1&sort=-age&include=positions&fields[employees]=first_name,positions&fields[positions]=title&extra_fields[employees]=vacation_days&stats[total]=count';
    t.is(doc.links!.next, `/api/v1/teams/${team}/employees?${kept}&page[number]=2&page[size]=2`);
    const linkage = await get(`/api/v1/teams/${team}/relationships/employees?sort=-age&filter[age][gte]=1&page[size]=2&page[number]=2`);
    t.deepEqual(linkage.data, employees.slice(2, 4).map((e) => ({ type: 'employees', id: String(e.id) })));
    t.is(linkage.links!.related, `/api/v1/teams/${team}/employees`);
    t.is(linkage.links!.prev, `/api/v1/teams/${team}/relationships/employees?sort=-age&filter[age][gte]=1&page[number]=1&page[size]=2`);
  });

  test(`${db.name}: bad parameters are 400s naming them, on the related Resource's terms`, async (t) => {
    for (const [path, parameter] of [
      ['/api/v1/employees/1/positions?filter[salary]=1', 'filter[salary]'],
      ['/api/v1/employees/1/positions?include=teams', 'include'],
      ['/api/v1/employees/1/positions?page[size]=5000', 'page[size]'],
      ['/api/v1/employees/1/relationships/positions?include=department', 'include'],
      ['/api/v1/employees/1/relationships/positions?fields[positions]=title', 'fields[positions]'],
    ]) {
      const response = await client.get(path!);
      t.is(response.status, 400, path);
      t.deepEqual((response.body as Doc).errors![0]!.source, { parameter }, path);
    }
  });

  test(`${db.name}: 404s: an unknown relationship, a missing record, a child without the relationship`, async (t) => {
    const bug = (await dir.models.Task.findOne({ where: { type: 'bugs' } }))!;
    for (const path of ['/api/v1/employees/1/bosses', '/api/v1/employees/1/relationships/bosses', '/api/v1/employees/99999/positions', '/api/v1/employees/99999/relationships/teams', `/api/v1/tasks/${bug.id}/milestones`]) {
      const response = await client.get(path, ADMIN);
      t.is(response.status, 404, path);
      t.is((response.body as Doc).errors![0]!.code, 'not_found');
    }
  });

  test(`${db.name}: guards: a guarded relationship is the 404 of an unknown one for a guest; the parent's guard is its 403`, async (t) => {
    const guarded = await client.get('/api/v1/employees/1/notes');
    const unknown = await client.get('/api/v1/employees/1/nodes');
    t.is(guarded.status, 404);
    t.is(guarded.text, unknown.text.replace('nodes', 'notes'));
    t.is((await client.get('/api/v1/employees/1/relationships/notes')).status, 404);
    t.is((await client.get('/api/v1/employees/1/notes', ADMIN)).status, 200);
    const note = await client.get('/api/v1/notes/1/notable');
    t.is(note.status, 403);
    t.is((note.body as Doc).errors![0]!.code, 'forbidden');
    t.deepEqual(await get('/api/v1/notes/1/notable', ADMIN).then((d) => identify(d.data as ResourceObject)), { type: 'employees', id: '1' });
    // the same with the record missing: nothing about records leaks
    t.is((await client.get('/api/v1/employees/99999/notes')).text, guarded.text);
  });

  test.serial(`${db.name}: SQL: the parent, the page, one query per include; a count only for a full page`, async (t) => {
    const queries = async (path: string) => {
      dir.resetQueries();
      t.is((await client.get(path)).status, 200, path);
      return dir.queries.length;
    };
    // a pooled database starts the count behind pagination links with the page, before it knows the page is short
    const early = db.name === 'sqlite' ? 0 : 1;
    t.is(await queries('/api/v1/employees/1/positions'), 2 + early);
    t.is(await queries('/api/v1/employees/1/relationships/positions'), 2 + early);
    t.is(await queries('/api/v1/employees/1/positions?include=department,employee'), 4 + early);
    t.is(await queries('/api/v1/employees/1/current_position?include=department'), 3);
    t.is(await queries('/api/v1/departments/1/positions?page[size]=2'), 3);
    t.is(await queries('/api/v1/employees/3/teams?include=employees.positions'), 4 + early);
  });

  test(`${db.name}: relationship endpoints are routed where the Resource shows its records, not otherwise`, async (t) => {
    t.is((await client.get('/api/v1/teams/1/employees')).status, 200);
    const unrouted = await client.get('/other/team-index/1/employees');
    t.is(unrouted.status, 404);
    t.is((unrouted.body as Doc).errors![0]!.detail, 'No route for GET /other/team-index/1/employees');
    t.is((await client.get('/other/team-index')).status, 200);
  });
}
