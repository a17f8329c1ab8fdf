import test from 'ava';
import { testDatabases } from '../../support/databases.ts';
import { directoryServer } from '../../support/directory-server.ts';
import { tableCounts } from '../../support/directory.ts';
import { ADMIN } from '../../support/example-auth.ts';

type Resource = { id: string; type: string; attributes: Record<string, unknown>; 'temp-id'?: string };
type Doc = { data: Resource; included?: Resource[]; meta: object; errors?: Array<{ status: string; code: string; source?: Record<string, unknown>; meta?: Record<string, unknown> }> };

/** Writes over HTTP: statuses, bodies and errors a client sees. Every body is checked against the JSON:API schema. */
for (const db of testDatabases()) {
  const { dir, client } = directoryServer(db, 'write_api', 10);
  const send = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const response = await client.request(method, path, body, headers);
    return { status: response.status, body: response.body as Doc };
  };

  test.serial(`${db.name}: POST creates: 201 with the record and its sideposted graph`, async (t) => {
    const response = await send('POST', '/api/v1/employees', {
      data: {
        type: 'employees',
        attributes: { first_name: 'Katherine', last_name: 'Johnson', age: 33 },
        relationships: { positions: { data: [{ type: 'positions', 'temp-id': 'a1b2c3', method: 'create' }] } },
      },
      included: [{ type: 'positions', 'temp-id': 'a1b2c3', attributes: { title: 'Mathematician', active: true } }],
    });
    t.is(response.status, 201);
    t.like(response.body.data, { type: 'employees', attributes: { first_name: 'Katherine', age: 33 } });
    t.like(response.body.included![0], { type: 'positions', 'temp-id': 'a1b2c3', attributes: { title: 'Mathematician' } });
    const saved = await dir.models.Position.findByPk(Number(response.body.included![0]!.id));
    t.is(String(saved!.employee_id), response.body.data.id);
  });

  test.serial(`${db.name}: plain application/json is accepted`, async (t) => {
    const response = await send('POST', '/api/v1/departments', { data: { type: 'departments', attributes: { name: 'Plain' } } }, { 'content-type': 'application/json' });
    t.is(response.status, 201);
  });

  test.serial(`${db.name}: PATCH updates and answers 200; DELETE answers 200 with empty meta`, async (t) => {
    const updated = await send('PATCH', '/api/v1/departments/1', { data: { type: 'departments', id: '1', attributes: { name: 'Renamed' } } });
    t.is(updated.status, 200);
    t.is(updated.body.data.attributes.name, 'Renamed');
    const created = await dir.models.Department.create({ name: 'Doomed' });
    const deleted = await send('DELETE', `/api/v1/departments/${created.id}`);
    t.deepEqual(deleted, { status: 200, body: { meta: {}, jsonapi: { version: '1.1' } } as unknown as Doc });
    t.is(await dir.models.Department.findByPk(created.id), null);
    t.is((await send('DELETE', `/api/v1/departments/${created.id}`)).status, 404);
  });

  test.serial(`${db.name}: 422 lists every invalid record, and nothing is written`, async (t) => {
    const before = await tableCounts(dir.models);
    const response = await send('POST', '/api/v1/employees', {
      data: { type: 'employees', attributes: { first_name: '', last_name: 'X' }, relationships: { positions: { data: [{ type: 'positions', 'temp-id': 'p' }] } } },
      included: [{ type: 'positions', 'temp-id': 'p', attributes: { title: '' } }],
    });
    t.is(response.status, 422);
    t.deepEqual(response.body.errors!.map((e) => e.source), [{ pointer: '/data/attributes/first_name' }, { pointer: '/included/0/attributes/title' }]);
    t.deepEqual(await tableCounts(dir.models), before);
  });

  test.serial(`${db.name}: salary is writable by admins only`, async (t) => {
    const body = { data: { type: 'employees', id: '1', attributes: { salary: '99.99' } } };
    const guest = await send('PATCH', '/api/v1/employees/1', body);
    t.is(guest.status, 422);
    t.like(guest.body.errors![0], { meta: { code: 'unwritable_attribute' }, source: { pointer: '/data/attributes/salary' } });
    const admin = await send('PATCH', '/api/v1/employees/1', body, ADMIN);
    t.is(admin.status, 200);
    t.is(admin.body.data.attributes.salary, '99.99');
  });

  const failures: Array<[string, string, string, unknown, number, Record<string, unknown>]> = [
    ['malformed JSON', 'POST', '/api/v1/employees', '{"data": {', 400, { code: 'invalid_json', source: { pointer: '' } }],
    ['an empty body', 'POST', '/api/v1/employees', '', 400, { code: 'invalid_document' }],
    ['a missing type', 'POST', '/api/v1/employees', { data: { attributes: {} } }, 400, { code: 'missing', source: { pointer: '/data/type' } }],
    ['an unknown attribute', 'POST', '/api/v1/employees', { data: { type: 'employees', attributes: { shoe_size: 9 } } }, 400, { code: 'unknown_attribute', source: { pointer: '/data/attributes/shoe_size' } }],
    ['a wrong value type', 'PATCH', '/api/v1/employees/1', { data: { type: 'employees', attributes: { age: [] } } }, 400, { code: 'type_error', source: { pointer: '/data/attributes/age' } }],
    ['a type that is not the endpoint\'s', 'PATCH', '/api/v1/employees/1', { data: { type: 'teams', id: '1' } }, 409, { code: 'conflict' }],
    ['an id that is not the endpoint\'s', 'PATCH', '/api/v1/employees/1', { data: { type: 'employees', id: '2' } }, 409, { code: 'conflict', source: { pointer: '/data/id' } }],
    ['a missing record', 'PATCH', '/api/v1/employees/9999', { data: { type: 'employees', attributes: {} } }, 404, { code: 'not_found' }],
    ['a read-only attribute', 'POST', '/api/v1/employees', { data: { type: 'employees', attributes: { updated_at: '2020-01-01' } } }, 422, { meta: { code: 'unwritable_attribute' } }],
  ];
  for (const [what, method, path, body, status, expected] of failures) {
    test.serial(`${db.name}: ${what} is a ${status}`, async (t) => {
      const before = await tableCounts(dir.models);
      const response = await send(method, path, body);
      t.is(response.status, status);
      t.like(response.body.errors![0], { status: String(status), ...expected });
      t.deepEqual(await tableCounts(dir.models), before);
    });
  }

  test.serial(`${db.name}: POST to a polymorphic parent accepts any child type`, async (t) => {
    const response = await send('POST', '/api/v1/tasks', { data: { type: 'features', attributes: { title: 'Dark mode v2', points: 8 } } });
    t.is(response.status, 201);
    t.like(response.body.data, { type: 'features', attributes: { points: 8 } });
    const epic = await send('POST', '/api/v1/epics', {
      data: { type: 'epics', attributes: { title: 'Launch' }, relationships: { milestones: { data: [{ type: 'milestones', 'temp-id': 'm' }] } } },
      included: [{ type: 'milestones', 'temp-id': 'm', attributes: { name: 'Liftoff' } }],
    });
    t.is(epic.status, 201);
    t.is((await dir.models.Milestone.findByPk(Number(epic.body.included![0]!.id)))!.epic_id, Number(epic.body.data.id));
  });

  test.serial(`${db.name}: POST to a polymorphic parent as the parent's own type is a 422 at /data/type naming the types, and writes nothing`, async (t) => {
    const before = await dir.models.Task.count();
    const response = await send('POST', '/api/v1/tasks', { data: { type: 'tasks', attributes: { title: 'Which kind?' } } });
    t.is(response.status, 422);
    t.deepEqual(response.body.errors, [
      {
        code: 'unprocessable_entity',
        status: '422',
        title: 'Validation Error',
        detail: 'A tasks record is created as one of its types: bugs, features, epics',
        source: { pointer: '/data/type' },
        meta: { attribute: null, message: 'A tasks record is created as one of its types: bugs, features, epics', code: 'polymorphic_type_required' },
      },
    ]);
    t.is(await dir.models.Task.count(), before);
  });

  test.serial(`${db.name}: a polymorphic child's endpoint takes its own type only, and has only its own relationships`, async (t) => {
    const before = await tableCounts(dir.models);
    const created = await send('POST', '/api/v1/bugs', { data: { type: 'features', attributes: { title: 'Sneaky', points: 3 } } });
    t.is(created.status, 409);
    t.like(created.body.errors![0], { status: '409', source: { pointer: '/data/type' } });
    const bug = (await dir.models.Task.findOne({ where: { type: 'bugs' } }))!;
    const updated = await send('PATCH', `/api/v1/bugs/${bug.id}`, { data: { type: 'features', id: String(bug.id), attributes: { points: 3 } } });
    t.is(updated.status, 409);
    t.like(updated.body.errors![0], { status: '409', source: { pointer: '/data/type' } });
    t.deepEqual(await tableCounts(dir.models), before);
    // milestones belong to epics; a bug has none to list
    const milestones = await send('GET', `/api/v1/bugs/${bug.id}/milestones`);
    t.is(milestones.status, 404);
    t.like(milestones.body.errors![0], { code: 'not_found' });
  });

  test.serial(`${db.name}: a body larger than the limit is a JSON:API 413`, async (t) => {
    const response = await send('POST', '/api/v1/departments', { data: { type: 'departments', attributes: { name: 'x'.repeat(1_100_000) } } });
    t.is(response.status, 413);
    t.is(response.body.errors![0]!.code, 'payload_too_large');
  });
}
