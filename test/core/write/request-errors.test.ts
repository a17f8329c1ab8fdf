import test from 'ava';
import { BadRequestError, withContext, type WritePayload } from '../../../core/index.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, tableCounts, type Directory } from '../../support/directory.ts';

/** A document as an HTTP body or a JavaScript caller hands it over: its shape is checked when it is saved. */
const unchecked = (document: unknown) => document as WritePayload;

/** Payloads Mural refuses before writing anything, each with its status and pointer. */
for (const db of testDatabases()) {
  let dir: Directory;
  test.before(async () => {
    dir = await openDirectory(db, 'write_errors', 10);
  });
  test.after.always(async () => dir?.sequelize.close());

  const cases: Array<[string, unknown, number, string, string]> = [
    ['no type', { data: { attributes: { name: 'x' } } }, 400, 'missing', '/data/type'],
    ['a body that is not an object', [1, 2], 400, 'invalid_document', ''],
    ['an unknown attribute', { data: { type: 'employees', attributes: { height: 2 } } }, 400, 'unknown_attribute', '/data/attributes/height'],
    ['a value of the wrong type', { data: { type: 'employees', attributes: { first_name: 'A', last_name: 'B', age: 'old' } } }, 400, 'type_error', '/data/attributes/age'],
    ['an unknown relationship', { data: { type: 'employees', relationships: { bosses: { data: [] } } } }, 400, 'unknown_relationship', '/data/relationships/bosses'],
    ['a wrong type in a relationship', { data: { type: 'employees', relationships: { positions: { data: [{ type: 'teams', id: '1' }] } } } }, 400, 'invalid_relationship', '/data/relationships/positions/data/0/type'],
    ['a temp-id with no included entry', { data: { type: 'employees', relationships: { positions: { data: [{ type: 'positions', 'temp-id': 'x' }] } } } }, 400, 'missing_included', '/data/relationships/positions/data/0'],
    ['an identifier without id or temp-id', { data: { type: 'employees', relationships: { positions: { data: [{ type: 'positions' }] } } } }, 400, 'missing', '/data/relationships/positions/data/0'],
    ['an unknown method', { data: { type: 'employees', relationships: { positions: { data: [{ type: 'positions', id: '1', method: 'merge' }] } } } }, 400, 'invalid_relationship', '/data/relationships/positions/data/0/method'],
    ['a to-many given one object', { data: { type: 'employees', relationships: { positions: { data: { type: 'positions', id: '1' } } } } }, 400, 'invalid_relationship', '/data/relationships/positions/data'],
    ['an unknown attribute on an included record', { data: { type: 'employees', relationships: { positions: { data: [{ type: 'positions', 'temp-id': 'p' }] } } }, included: [{ type: 'positions', 'temp-id': 'p', attributes: { salary: 1 } }] }, 400, 'unknown_attribute', '/included/0/attributes/salary'],
    ['two included entries for one temp-id', { data: { type: 'employees', attributes: { first_name: 'A', last_name: 'B' }, relationships: { positions: { data: [{ type: 'positions', 'temp-id': 'p' }] } } }, included: [{ type: 'positions', 'temp-id': 'p', attributes: { title: 'T' } }, { type: 'positions', 'temp-id': 'p', attributes: { title: 'U' } }] }, 400, 'duplicate_included', '/included/1'],
    ['two included entries for one id', { data: { type: 'employees', attributes: { first_name: 'A', last_name: 'B' }, relationships: { positions: { data: [{ type: 'positions', id: '1' }] } } }, included: [{ type: 'positions', id: '1', attributes: { title: 'T' } }, { type: 'positions', id: 1, attributes: { title: 'U' } }] }, 400, 'duplicate_included', '/included/1'],
    ['another type than the endpoint', { data: { type: 'teams', attributes: { name: 'x' } } }, 409, 'conflict', '/data/type'],
    // employees take no client-generated ids (clientGeneratedIds): JSON:API's 403, not a 422
    ['a create naming its own id', { data: { type: 'employees', id: '900', attributes: { first_name: 'A', last_name: 'B' } } }, 403, 'client_id_unsupported', '/data/id'],
    [
      'a sideposted create naming its own id',
      { data: { type: 'employees', attributes: { first_name: 'A', last_name: 'B' }, relationships: { positions: { data: [{ type: 'positions', id: '900', method: 'create' }] } } }, included: [{ type: 'positions', id: '900', attributes: { title: 'T' } }] },
      403, 'client_id_unsupported', '/data/relationships/positions/data/0/id',
    ],
  ];
  for (const [what, payload, status, code, pointer] of cases) {
    test.serial(`${db.name}: ${what} is a ${status} pointing at ${pointer || 'the document'}`, async (t) => {
      const before = await tableCounts(dir.models);
      const error = await t.throwsAsync(dir.resources.EmployeeResource.build(unchecked(payload)).save());
      t.like(error, { status, code, pointer });
      t.deepEqual(await tableCounts(dir.models), before);
    });
  }

  test.serial(`${db.name}: an id that does not match the endpoint is a 409`, async (t) => {
    const error = await t.throwsAsync(dir.resources.EmployeeResource.find({ id: 1 }).update({ data: { type: 'employees', id: '2', attributes: {} } }));
    t.like(error, { status: 409, pointer: '/data/id' });
  });

  test.serial(`${db.name}: regression: fuzz seed 20262123 — PATCH /employees/11 with data.id {"toString":{}} is a 400, not a 500`, async (t) => {
    const before = await tableCounts(dir.models);
    const payload = JSON.parse('{"data":{"type":"employees","id":{"toString":{}},"attributes":{"first_name":" ","last_name":"Ada","age":0}}}');
    const error = await t.throwsAsync(dir.resources.EmployeeResource.find({ id: 1 }).update(payload));
    t.like(error, { status: 400, code: 'invalid_document', pointer: '/data/id' });
    t.deepEqual(await tableCounts(dir.models), before);
  });

  test.serial(`${db.name}: regression: ids and temp-ids in relationships that are neither strings nor numbers are 400s`, async (t) => {
    const linkage = (identifier: unknown) => ({ data: { type: 'employees', attributes: { first_name: 'A', last_name: 'B' }, relationships: { positions: { data: [identifier] } } } });
    const { EmployeeResource } = dir.resources;
    const byId = await t.throwsAsync(EmployeeResource.build(unchecked(linkage({ type: 'positions', id: { toString: {} } }))).save());
    t.like(byId, { status: 400, code: 'invalid_document', pointer: '/data/relationships/positions/data/0/id' });
    const byTempId = await t.throwsAsync(EmployeeResource.build(unchecked(linkage({ type: 'positions', 'temp-id': [] }))).save());
    t.like(byTempId, { status: 400, code: 'invalid_document', pointer: '/data/relationships/positions/data/0/temp-id' });
  });

  test.serial(`${db.name}: a missing record or related record is a 404, and nothing changes`, async (t) => {
    const before = await tableCounts(dir.models);
    t.like(await t.throwsAsync(dir.resources.EmployeeResource.find({ id: 999 }).update({ data: { type: 'employees', attributes: { age: 3 } } })), { status: 404 });
    const linkMissing = dir.resources.EmployeeResource.build({
      data: { type: 'employees', attributes: { first_name: 'A', last_name: 'B' }, relationships: { teams: { data: [{ type: 'teams', id: '999' }] } } },
    });
    t.like(await t.throwsAsync(linkMissing.save()), { status: 404, message: 'No teams record with id "999"' });
    t.deepEqual(await tableCounts(dir.models), before);
  });

  test.serial(`${db.name}: writing a read-only attribute is a 422 unwritable_attribute`, async (t) => {
    const write = dir.resources.EmployeeResource.build({ data: { type: 'employees', attributes: { first_name: 'A', last_name: 'B', created_at: '2020-01-01T00:00:00Z' } } });
    t.false(await write.save());
    t.deepEqual(write.errors, [{
      status: '422', code: 'unprocessable_entity', title: 'Validation Error', detail: 'Attribute "created_at" of employees cannot be written',
      source: { pointer: '/data/attributes/created_at' }, meta: { attribute: 'created_at', message: 'cannot be written', code: 'unwritable_attribute' },
    }]);
  });

  test.serial(`${db.name}: a refused writable guard is the same 422; the guard's owner may write`, async (t) => {
    const payload = { data: { type: 'employees', attributes: { first_name: 'Rich', last_name: 'Person', salary: '1000000.50' } } };
    const before = await tableCounts(dir.models);
    const guest = dir.resources.EmployeeResource.build(payload);
    t.false(await guest.save());
    t.like(guest.errors[0], { source: { pointer: '/data/attributes/salary' }, meta: { code: 'unwritable_attribute' } });
    t.deepEqual(await tableCounts(dir.models), before);
    const admin = await withContext({ role: 'admin' }, async () => {
      const write = dir.resources.EmployeeResource.build(payload);
      return (await write.save()) ? write : undefined;
    });
    t.truthy(admin);
    t.is(Number((await dir.models.Employee.findByPk((admin!.data as { id: number }).id))!.salary), 1000000.5);
  });

  test.serial(`${db.name}: sideposting to a relationship the caller may neither read nor write is the 400 of an unknown relationship`, async (t) => {
    const before = await tableCounts(dir.models);
    const attempt = (name: string) => dir.resources.EmployeeResource.build({
      data: { type: 'employees', attributes: { first_name: 'A', last_name: 'B' }, relationships: { [name]: { data: [{ type: 'notes', 'temp-id': 'n' }] } } },
      included: [{ type: 'notes', 'temp-id': 'n', attributes: { body: 'secret' } }],
    }).save();
    const hidden = await t.throwsAsync(attempt('notes'), { instanceOf: BadRequestError });
    const unknown = await t.throwsAsync(attempt('notez'), { instanceOf: BadRequestError });
    t.like(hidden, { status: 400, code: 'unknown_relationship', pointer: '/data/relationships/notes' });
    t.deepEqual(JSON.parse(JSON.stringify(hidden.toJsonapiErrors()).replaceAll('notes', 'notez')), unknown.toJsonapiErrors());
    t.deepEqual(await tableCounts(dir.models), before);
  });

  test.serial(`${db.name}: sideposting to a relationship the caller may read but not write is a 422 unwritable_relationship`, async (t) => {
    class ReadOnlyTeams extends dir.resources.EmployeeResource {
      static {
        this.type = 'read_only_teams';
        this.manyToMany('teams', { foreignKey: { employee_teams: 'employee_id' }, writable: false });
      }
    }
    const before = await tableCounts(dir.models);
    const write = ReadOnlyTeams.build({ data: { type: 'read_only_teams', attributes: { first_name: 'A', last_name: 'B' }, relationships: { teams: { data: [{ type: 'teams', id: '1' }] } } } });
    t.false(await write.save());
    t.like(write.errors[0], { status: '422', source: { pointer: '/data/relationships/teams' }, meta: { code: 'unwritable_relationship' } });
    t.deepEqual(await tableCounts(dir.models), before);
  });


  test.serial(`${db.name}: writable guards get the persisted record on update and a new one on create`, async (t) => {
    const seen: Array<[boolean, unknown]> = [];
    class Careful extends dir.resources.EmployeeResource {
      static {
        this.type = 'employees';
        this.attribute('age', 'integer', {
          writable: (employee: { isNewRecord: boolean; first_name: string | null }) => {
            seen.push([employee.isNewRecord, employee.first_name]);
            return employee.isNewRecord || employee.first_name !== 'Ada';
          },
        });
      }
    }
    t.true(await Careful.build({ data: { type: 'employees', attributes: { first_name: 'New', last_name: 'Hire', age: 30 } } }).save());
    const ada = Careful.find({ id: 1 });
    t.false(await ada.update({ data: { type: 'employees', attributes: { age: 10 } } }));
    t.deepEqual(seen, [[true, undefined], [false, 'Ada']]);
  });

  test.serial(`${db.name}: regression: fuzz seed 20262123 — a title longer than its VARCHAR(255) column is a 422 at the attribute, never a 500`, async (t) => {
    const before = await tableCounts(dir.models);
    const write = dir.resources.BugResource.build({ data: { type: 'bugs', attributes: { title: 'x'.repeat(1000), employee_id: 1 } } });
    t.false(await write.save());
    t.like(write.errors[0], { status: '422', source: { pointer: '/data/attributes/title' }, meta: { code: 'too_long' } });
    t.notRegex(JSON.stringify(write.errors), /varying|Data too long/, 'the message is ours, not the database\'s');
    t.deepEqual(await tableCounts(dir.models), before);
  });

  test.serial(`${db.name}: regression: fuzz seed 20262123 — an age beyond the INTEGER column is a 422 at the attribute, never a 500`, async (t) => {
    const before = await tableCounts(dir.models);
    const write = dir.resources.EmployeeResource.build({ data: { type: 'employees', attributes: { first_name: 'A', last_name: 'B', age: 2147483648 } } });
    t.false(await write.save());
    t.like(write.errors[0], { status: '422', source: { pointer: '/data/attributes/age' }, meta: { code: 'out_of_range' } });
    t.deepEqual(await tableCounts(dir.models), before);
  });

  test.serial(`${db.name}: a database constraint becomes a 422 and rolls back`, async (t) => {
    const before = await tableCounts(dir.models);
    const { EmployeeTeam } = dir.models;
    await t.throwsAsync(EmployeeTeam.create({ employee_id: 1, team_id: (await EmployeeTeam.findOne({ where: { employee_id: 1 } }))!.team_id }));
    t.deepEqual(await tableCounts(dir.models), before, 'the unique index exists');
    class Strict extends dir.resources.DepartmentResource {
      static {
        this.type = 'departments';
      }
      override async save(model: object) {
        await super.save(model);
        // a second row with the same id violates the primary key inside the transaction
        await dir.models.Department.create({ id: (model as { id: number }).id, name: 'Clone' }, { transaction: (await import('../../../core/index.ts')).currentTransaction() as never });
      }
    }
    const write = Strict.build({ data: { type: 'departments', attributes: { name: 'Original' } } });
    t.false(await write.save());
    t.like(write.errors[0], { status: '422', meta: { code: 'taken', message: 'has already been taken' } });
    t.deepEqual(await tableCounts(dir.models), before);
  });
}
