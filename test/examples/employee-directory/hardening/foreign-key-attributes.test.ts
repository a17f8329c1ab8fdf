import test from 'ava';
import { testDatabases } from '../../../support/databases.ts';
import { directoryServer } from '../../../support/directory-server.ts';
import { tableCounts } from '../../../support/directory.ts';
import type { HttpResponse } from '../../../support/http.ts';
import { ADMIN } from '../../../support/example-auth.ts';

type ErrorDoc = { errors: Array<{ status: string; code: string; source?: { pointer?: string } }> };

const ATOMIC = { 'content-type': 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"', ...ADMIN };

/**
 * Issue #34, finding 8: a foreign key written as an attribute names its
 * record as the relationship does, and is answered the same way: a record
 * the related Resource's base scope does not find is a 404 at the
 * attribute, on every write path, and nothing is written. Before, writing
 * `notable_id` of a team that does not exist was a 200 while the
 * relationship endpoint answered 404 for the same target.
 */
for (const db of testDatabases('foreign_key_attributes')) {
  const { dir, client } = directoryServer(db, 'foreign_key_attributes', 5);
  const errorOf = (response: HttpResponse) => (response.body as ErrorDoc).errors[0]!;
  const note = async (notable_type: string, notable_id: number) => dir.models.Note.create({ body: 'n', notable_type, notable_id });

  test.serial(`${db.name}: notable_id of a team that does not exist is a 404 at the attribute, as the relationship endpoint answers`, async (t) => {
    const { id } = await note('teams', 1);
    const before = await tableCounts(dir.models);
    const byRelationship = await client.request('PATCH', `/api/v1/notes/${id}/relationships/notable`, { data: { type: 'teams', id: '99999' } }, ADMIN);
    t.is(byRelationship.status, 404);
    const byAttribute = await client.request('PATCH', `/api/v1/notes/${id}`, { data: { type: 'notes', id: String(id), attributes: { notable_id: 99999 } } }, ADMIN);
    t.is(byAttribute.status, 404);
    t.like(errorOf(byAttribute), { code: errorOf(byRelationship).code, source: { pointer: '/data/attributes/notable_id' } });
    const created = await client.request('POST', '/api/v1/notes', { data: { type: 'notes', attributes: { body: 'x', notable_type: 'departments', notable_id: 99999 } } }, ADMIN);
    t.is(created.status, 404);
    t.like(errorOf(created), { source: { pointer: '/data/attributes/notable_id' } });
    t.deepEqual(await tableCounts(dir.models), before);
    t.like(await dir.models.Note.findByPk(id), { notable_type: 'teams', notable_id: 1 });
  });

  test.serial(`${db.name}: the type column decides the Resource: a change of type alone is checked against the stored id`, async (t) => {
    const team = await dir.models.Team.create({ name: 'Far', department_id: 1 });
    const { id } = await note('teams', team.id);
    const departments = await dir.models.Department.count();
    t.true(team.id > departments, 'an id that is a team but no department');
    const retyped = await client.request('PATCH', `/api/v1/notes/${id}`, { data: { type: 'notes', id: String(id), attributes: { notable_type: 'departments' } } }, ADMIN);
    t.is(retyped.status, 404);
    t.like(errorOf(retyped), { source: { pointer: '/data/attributes/notable_id' } });
    const both = await client.request('PATCH', `/api/v1/notes/${id}`, { data: { type: 'notes', id: String(id), attributes: { notable_type: 'departments', notable_id: 1 } } }, ADMIN);
    t.is(both.status, 200, both.text);
    t.like(await dir.models.Note.findByPk(id), { notable_type: 'departments', notable_id: 1 });
    const untouched = await client.request('PATCH', `/api/v1/notes/${id}`, { data: { type: 'notes', id: String(id), attributes: { body: 'only the body', notable_id: 1 } } }, ADMIN);
    t.is(untouched.status, 200, 'a key written as it is stored is not looked up again');
  });

  test.serial(`${db.name}: the related Resource's base scope decides: a milestone's epic_id naming a bug is a 404, as its epic relationship`, async (t) => {
    const epic = await dir.models.Task.create({ type: 'epics', title: 'E', employee_id: 1 });
    const bug = await dir.models.Task.create({ type: 'bugs', title: 'B', employee_id: 1 });
    const milestone = await dir.models.Milestone.create({ name: 'M', epic_id: epic.id });
    const byRelationship = await client.request('PATCH', `/api/v1/milestones/${milestone.id}/relationships/epic`, { data: { type: 'epics', id: String(bug.id) } });
    t.is(byRelationship.status, 404);
    const byAttribute = await client.request('PATCH', `/api/v1/milestones/${milestone.id}`, { data: { type: 'milestones', id: String(milestone.id), attributes: { epic_id: bug.id } } });
    t.is(byAttribute.status, 404);
    t.like(errorOf(byAttribute), { source: { pointer: '/data/attributes/epic_id' } });
    t.is((await dir.models.Milestone.findByPk(milestone.id))!.epic_id, epic.id);
    const created = await client.request('POST', '/api/v1/milestones', { data: { type: 'milestones', attributes: { name: 'N', epic_id: epic.id } } });
    t.is(created.status, 201, 'an epic that exists: written');
  });

  test.serial(`${db.name}: sideposted and atomic writes answer the same 404 at their own pointer, and write nothing`, async (t) => {
    const before = await tableCounts(dir.models);
    const sideposted = await client.request('PATCH', '/api/v1/employees/1', {
      data: { type: 'employees', id: '1', relationships: { teams: { data: [{ type: 'teams', 'temp-id': 't', method: 'create' }] } } },
      included: [{ type: 'teams', 'temp-id': 't', attributes: { name: 'New', department_id: 99999 } }],
    });
    t.is(sideposted.status, 404);
    t.like(errorOf(sideposted), { source: { pointer: '/included/0/attributes/department_id' } });
    const atomic = await client.request('POST', '/api/v1/operations', {
      'atomic:operations': [
        { op: 'add', data: { type: 'departments', attributes: { name: 'Fine' } } },
        { op: 'add', data: { type: 'notes', attributes: { body: 'x', notable_type: 'employees', notable_id: 99999 } } },
      ],
    }, ATOMIC);
    t.is(atomic.status, 404);
    t.like(errorOf(atomic), { source: { pointer: '/atomic:operations/1/data/attributes/notable_id' } });
    t.deepEqual(await tableCounts(dir.models), before);
  });
}
