import test, { type ExecutionContext } from 'ava';
import { Op } from 'sequelize';
import { testDatabases } from '../../support/databases.ts';
import { directoryServer } from '../../support/directory-server.ts';
import { tableCounts } from '../../support/directory.ts';
import type { HttpResponse } from '../../support/http.ts';
import { ADMIN } from '../../support/example-auth.ts';

type ErrorObject = { status: string; code: string; detail: string; source?: { pointer?: unknown }; meta?: Record<string, unknown> };
type ErrorDoc = { errors: ErrorObject[] };

const ATOMIC = { 'content-type': 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"' };
/** What a driver or Sequelize says of a refused row, none of which is for clients. */
const DRIVER_TEXT = /constraint|SQLITE|violates|cannot be null|FOREIGN KEY|\bER_|\bINSERT\b|\bDELETE\b|\bUPDATE\b|Sequelize|must be unique|Validation \w+ on/i;

/**
 * The example's foreign keys (docs/decisions.md, "The example's foreign
 * keys") enforced by the database, and what each refusal answers through
 * every write path, on every database: a delete of a record others refer
 * to is a 409, a key naming no record a 422 at the member that holds it,
 * no driver text reaches the client, and nothing is written. Issue #34,
 * findings 3 and 6.
 */
for (const db of testDatabases('constraints_api')) {
  const { dir, client } = directoryServer(db, 'constraints_api', 10);

  const errorsOf = (response: HttpResponse) => (response.body as ErrorDoc).errors;
  const operations = (list: unknown[], headers: Record<string, string> = {}) =>
    client.request('POST', '/api/v1/operations', { 'atomic:operations': list }, { ...ATOMIC, ...headers });

  /** A department some position refers to (positions.department_id is ON DELETE RESTRICT). */
  const staffedDepartment = async () => {
    const position = await dir.models.Position.findOne({ where: { department_id: { [Op.ne]: null } }, order: [['id', 'ASC']] });
    return String(position!.department_id);
  };

  /** The errors of a refused write, with no driver text anywhere in the body and nothing written. */
  const refusedAll = async (t: ExecutionContext, write: () => Promise<HttpResponse>, status: number): Promise<ErrorObject[]> => {
    const before = await tableCounts(dir.models);
    const response = await write();
    t.is(response.status, status, response.text);
    t.notRegex(response.text, DRIVER_TEXT);
    t.deepEqual(await tableCounts(dir.models), before);
    const errors = errorsOf(response);
    for (const error of errors) t.true(error.source === undefined || typeof error.source.pointer === 'string', 'a pointer is a JSON Pointer or absent');
    return errors;
  };
  /** The one error of a refused write, as refusedAll checks it. */
  const refused = async (t: ExecutionContext, write: () => Promise<HttpResponse>, status: number): Promise<ErrorObject> => {
    const errors = await refusedAll(t, write, status);
    t.is(errors.length, 1);
    return errors[0]!;
  };
  /** A milestone of an epic, found as the test runs (an earlier test deletes an epic and its milestones). */
  const someMilestone = async () => (await dir.models.Milestone.findOne({ order: [['id', 'ASC']] }))!;

  test.serial(`${db.name}: the database enforces the example's foreign keys (SQLite with foreign_keys on)`, async (t) => {
    if (db.name === 'sqlite') {
      await dir.sequelize.transaction(async (transaction) => {
        t.deepEqual(await dir.sequelize.query('PRAGMA foreign_keys', { transaction }), [{ foreign_keys: 1 }]);
      });
    }
    await t.throwsAsync(dir.models.Position.create({ title: 'Orphan', employee_id: 1, department_id: 999_999 }));
  });

  test.serial(`${db.name}: DELETE of a department positions refer to is a 409 conflict, and deletes nothing`, async (t) => {
    const id = await staffedDepartment();
    const error = await refused(t, () => client.request('DELETE', `/api/v1/departments/${id}`), 409);
    t.like(error, { status: '409', code: 'conflict', detail: `departments ${id} cannot be deleted: other records refer to it`, meta: { reason: 'referenced' } });
    t.is(error.source, undefined);
    t.is((await client.get(`/api/v1/departments/${id}`)).status, 200);
  });

  test.serial(`${db.name}: an atomic remove of a department positions refer to is a 409 at its operation, the earlier operations rolled back`, async (t) => {
    const id = await staffedDepartment();
    const error = await refused(t, () => operations([
      { op: 'add', data: { type: 'departments', attributes: { name: 'Rolled back' } } },
      { op: 'remove', ref: { type: 'departments', id } },
    ]), 409);
    t.like(error, { code: 'conflict', meta: { reason: 'referenced' } });
    t.regex(String(error.source?.pointer), /^\/atomic:operations\/1(\/|$)/);
  });

  test.serial(`${db.name}: a sideposted destroy of a department positions refer to is a 409 at its identifier`, async (t) => {
    const id = await staffedDepartment();
    const team = await dir.models.Team.findOne({ where: { department_id: id } });
    const error = await refused(t, () => client.request('PATCH', `/api/v1/teams/${team!.id}`, {
      data: { type: 'teams', id: String(team!.id), relationships: { department: { data: { type: 'departments', id, method: 'destroy' } } } },
    }), 409);
    t.like(error, { code: 'conflict', source: { pointer: '/data/relationships/department/data' } });
  });

  test.serial(`${db.name}: the delete behaviours: CASCADE takes positions, memberships and milestones, SET NULL unassigns tasks and teams`, async (t) => {
    const created = await client.request('POST', '/api/v1/employees', {
      data: {
        type: 'employees', attributes: { first_name: 'Cascade', last_name: 'Test' },
        relationships: {
          positions: { data: [{ type: 'positions', 'temp-id': 'p', method: 'create' }] },
          teams: { data: [{ type: 'teams', id: '1' }] },
          tasks: { data: [{ type: 'bugs', 'temp-id': 'b', method: 'create' }] },
        },
      },
      included: [{ type: 'positions', 'temp-id': 'p', attributes: { title: 'Tester' } }, { type: 'bugs', 'temp-id': 'b', attributes: { title: 'Flaky' } }],
    });
    t.is(created.status, 201, created.text);
    const id = Number((created.body as { data: { id: string } }).data.id);
    const bug = await dir.models.Task.findOne({ where: { employee_id: id } });
    t.is((await client.request('DELETE', `/api/v1/employees/${id}`)).status, 200);
    t.is(await dir.models.Position.count({ where: { employee_id: id } }), 0);
    t.is(await dir.models.EmployeeTeam.count({ where: { employee_id: id } }), 0);
    t.is((await dir.models.Task.findByPk(bug!.id))!.employee_id, null);

    const department = await client.request('POST', '/api/v1/departments', { data: { type: 'departments', attributes: { name: 'Short-lived' } } });
    const departmentId = (department.body as { data: { id: string } }).data.id;
    const team = await client.request('POST', '/api/v1/teams', {
      data: { type: 'teams', attributes: { name: 'Survivors' }, relationships: { department: { data: { type: 'departments', id: departmentId } } } },
    });
    t.is((await client.request('DELETE', `/api/v1/departments/${departmentId}`)).status, 200);
    t.is((await dir.models.Team.findByPk((team.body as { data: { id: string } }).data.id))!.department_id, null);

    const epic = await dir.models.Task.findOne({ where: { type: 'epics' } });
    t.true((await dir.models.Milestone.count({ where: { epic_id: epic!.id } })) > 0);
    t.is((await client.request('DELETE', `/api/v1/epics/${epic!.id}`)).status, 200);
    t.is(await dir.models.Milestone.count({ where: { epic_id: epic!.id } }), 0);
  });

  // the database's own refusal of such a key (a 422 `not_found`) is the net under this check, for a record
  // deleted while the write runs: see test/core/write/constraint-refusal.test.ts and test/plugins/sequelize/constraint-errors.test.ts
  test.serial(`${db.name}: a foreign key attribute naming no record is the 404 the relationship endpoint answers, at the attribute, through each write path`, async (t) => {
    const team = { type: 'teams', attributes: { name: 'Nowhere', department_id: '999999' } };
    const expected = { status: '404', code: 'not_found', detail: 'No departments record with id "999999"' };

    const single = await refused(t, () => client.request('POST', '/api/v1/teams', { data: team }), 404);
    t.like(single, { ...expected, source: { pointer: '/data/attributes/department_id' } });

    const updated = await refused(t, () => client.request('PATCH', '/api/v1/teams/1', { data: { ...team, id: '1' } }), 404);
    t.like(updated, { ...expected, source: { pointer: '/data/attributes/department_id' } });

    const sideposted = await refused(t, () => client.request('PATCH', '/api/v1/employees/1', {
      data: { type: 'employees', id: '1', relationships: { teams: { data: [{ type: 'teams', 'temp-id': 't', method: 'create' }] } } },
      included: [{ ...team, 'temp-id': 't' }],
    }), 404);
    t.like(sideposted, { ...expected, source: { pointer: '/included/0/attributes/department_id' } });

    const atomic = await refused(t, () => operations([
      { op: 'add', data: { type: 'departments', attributes: { name: 'Rolled back' } } },
      { op: 'add', data: team },
    ]), 404);
    t.like(atomic, { ...expected, source: { pointer: '/atomic:operations/1/data/attributes/department_id' } });
  });

  test.serial(`${db.name}: finding 6 — a relationship write's 422 points at /data, in Mural's words`, async (t) => {
    const note = await client.request('PATCH', '/api/v1/notes/2/relationships/notable', { data: null }, ADMIN);
    t.is(note.status, 422, note.text);
    t.notRegex(note.text, DRIVER_TEXT);
    t.like(errorsOf(note)[0], { code: 'unprocessable_entity', detail: "Notable can't be blank", source: { pointer: '/data' }, meta: { attribute: 'notable_id', code: 'blank' } });

    const id = String((await someMilestone()).id);
    const milestone = await refused(t, () => client.request('PATCH', `/api/v1/milestones/${id}/relationships/epic`, { data: null }), 422);
    t.like(milestone, { detail: "Epic can't be blank", source: { pointer: '/data' }, meta: { code: 'blank' } });

    const atomic = await refused(t, () => operations([{ op: 'update', ref: { type: 'milestones', id, relationship: 'epic' }, data: null }]), 422);
    t.like(atomic, { detail: "Epic can't be blank", source: { pointer: '/atomic:operations/0/data' } });
  });

  test.serial(`${db.name}: a relationship write's member that cannot let go points at /data, naming the member`, async (t) => {
    const { epic_id: epic } = await someMilestone();
    const errors = await refusedAll(t, () => client.request('PATCH', `/api/v1/epics/${epic}/relationships/milestones`, { data: [] }), 422);
    const milestones = await dir.models.Milestone.findAll({ where: { epic_id: epic }, order: [['id', 'ASC']] });
    t.is(errors.length, milestones.length);
    errors.forEach((error, i) => {
      t.like(error, { detail: "Epic can't be blank", source: { pointer: '/data' } });
      t.like(error.meta, { relationship: { name: 'milestones', type: 'milestones', id: String(milestones[i]!.id), code: 'blank' } });
    });
  });
}
