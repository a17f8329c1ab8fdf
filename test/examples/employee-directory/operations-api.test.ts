import test from 'ava';
import { configureSqlite } from '../../../plugins/sequelize/index.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, tableCounts, type Directory } from '../../support/directory.ts';
import { serve, type HttpClient, type HttpResponse } from '../../support/http.ts';
import { sqliteFileDatabase } from '../../support/sqlite-file.ts';
import { ADMIN } from '../../support/example-auth.ts';

type Resource = { id: string; type: string; lid?: string; attributes: Record<string, unknown>; relationships?: Record<string, { data?: unknown }> };
type Results = { 'atomic:results': Array<{ data?: Resource }> };
type Errors = { errors: Array<{ status: string; code: string; source?: { pointer?: string } }> };

const ATOMIC = { 'content-type': 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"' };
/** Requests sent at once in the concurrency tests: as many operations requests as ordinary writes. */
const CONCURRENT = Number(process.env.MURAL_TEST_CONCURRENT_WRITES ?? 50) / 2;
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** A new hire: a department, the employee, two positions in it and a bug, each later operation naming earlier ones by lid. */
function onboarding(tag: string) {
  return [
    { op: 'add', data: { type: 'departments', lid: `${tag}-dept`, attributes: { name: `${tag} Lab` } } },
    { op: 'add', data: { type: 'employees', lid: `${tag}-emp`, attributes: { first_name: tag, last_name: 'Onboarded', age: 29 } } },
    ...['Engineer', 'Mentor'].map((title, i) => ({
      op: 'add',
      data: {
        type: 'positions', lid: `${tag}-pos-${i}`, attributes: { title: `${tag} ${title}`, active: i === 0 },
        relationships: { employee: { data: { type: 'employees', lid: `${tag}-emp` } }, department: { data: { type: 'departments', lid: `${tag}-dept` } } },
      },
    })),
    { op: 'add', data: { type: 'bugs', attributes: { title: `${tag} laptop`, severity: 2 }, relationships: { employee: { data: { type: 'employees', lid: `${tag}-emp` } } } } },
    { op: 'add', ref: { type: 'employees', lid: `${tag}-emp`, relationship: 'teams' }, data: [{ type: 'teams', id: '1' }] },
  ];
}

/**
 * The directory's `POST /api/v1/operations`: realistic graphs built in one
 * request, all or nothing, guarded as the endpoints are; and on SQLite,
 * concurrent operations and ordinary writes through the one write queue.
 */
const file = sqliteFileDatabase();
test.after.always(() => file.remove());

for (const db of [file, ...testDatabases('operations_api')]) {
  const label = db === file ? 'sqlite file' : db.name;
  let dir: Directory;
  let client: HttpClient;
  test.before(async () => {
    dir = await openDirectory(db, 'operations_api', 10);
    configureSqlite(dir.sequelize, { writeQueueTimeout: 60_000 });
    client = await serve(dir.app);
  });
  test.after.always(async () => {
    await client?.close();
    await dir?.sequelize.close();
  });
  const operations = (list: unknown[], headers: Record<string, string> = {}) =>
    client.request('POST', '/api/v1/operations', { 'atomic:operations': list }, { ...ATOMIC, ...headers });

  test.serial(`${label}: onboarding an employee with a department, positions, a bug and a team by lid, read back through the API`, async (t) => {
    const response = await operations(onboarding('Ada'));
    t.is(response.status, 200, response.text);
    const results = (response.body as Results)['atomic:results'];
    t.deepEqual(results.map((r) => r.data?.type ?? null), ['departments', 'employees', 'positions', 'positions', 'bugs', null]);
    const employee = results[1]!.data!;
    const read = await client.get(`/api/v1/employees/${employee.id}?include=positions.department,current_position,tasks,teams`);
    const body = read.body as { data: Resource; included: Resource[] };
    const included = (type: string) => body.included.filter((r) => r.type === type).map((r) => r.id).sort();
    t.deepEqual(included('positions'), [results[2]!.data!.id, results[3]!.data!.id].sort());
    t.deepEqual(included('departments'), [results[0]!.data!.id]);
    t.deepEqual(included('bugs'), [results[4]!.data!.id]);
    t.deepEqual(included('teams'), ['1']);
    t.deepEqual(body.data.relationships!.current_position!.data, { type: 'positions', id: results[2]!.data!.id });
  });

  test.serial(`${label}: update then remove: a position moves to another employee, the employee is removed, its bug reassigned`, async (t) => {
    const first = ((await operations(onboarding('Grace'))).body as Results)['atomic:results'];
    const [, grace, engineer, , bug] = first.map((r) => r.data!);
    const response = await operations([
      { op: 'add', data: { type: 'employees', lid: 'successor', attributes: { first_name: 'Hedy', last_name: 'Lamarr' } } },
      { op: 'update', ref: { type: 'positions', id: engineer!.id, relationship: 'employee' }, data: { type: 'employees', lid: 'successor' } },
      { op: 'update', ref: { type: 'bugs', id: bug!.id }, data: { type: 'bugs', attributes: { severity: 1 }, relationships: { employee: { data: { type: 'employees', lid: 'successor' } } } } },
      { op: 'remove', ref: { type: 'employees', id: grace!.id, relationship: 'teams' }, data: [{ type: 'teams', id: '1' }] },
      { op: 'remove', ref: { type: 'employees', id: grace!.id } },
    ]);
    t.is(response.status, 200, response.text);
    const [successor, moved, updatedBug, unlinked, removed] = (response.body as Results)['atomic:results'];
    t.deepEqual([moved, unlinked, removed], [{}, {}, {}]);
    t.is(updatedBug!.data!.attributes.severity, 1);
    t.is((await dir.models.Position.findByPk(Number(engineer!.id)))!.employee_id, Number(successor!.data!.id));
    t.is((await dir.models.Task.findByPk(Number(bug!.id)))!.employee_id, Number(successor!.data!.id));
    t.is((await client.get(`/api/v1/employees/${grace!.id}`)).status, 404);
  });

  test.serial(`${label}: a failure at operation 6 rolls back operations 0 to 5, with the failing member's pointer`, async (t) => {
    const before = await tableCounts(dir.models);
    const response = await operations([...onboarding('Doomed'), { op: 'update', ref: { type: 'positions', lid: 'Doomed-pos-1' }, data: { type: 'positions', attributes: { title: '' } } }]);
    t.is(response.status, 422);
    t.like((response.body as Errors).errors[0], { code: 'unprocessable_entity', source: { pointer: '/atomic:operations/6/data/attributes/title' } });
    t.deepEqual(await tableCounts(dir.models), before);
  });

  test.serial(`${label}: guards: notes and salary need the admin's token, in an operation as on their endpoints`, async (t) => {
    const note = { op: 'add', data: { type: 'notes', attributes: { body: 'Welcome!' }, relationships: { notable: { data: { type: 'employees', lid: 'Alan-emp' } } } } };
    const before = await tableCounts(dir.models);
    const refused = await operations([...onboarding('Alan'), note]);
    t.is(refused.status, 403);
    t.like((refused.body as Errors).errors[0], { code: 'forbidden', source: { pointer: '/atomic:operations/6' } });
    const salary = await operations([{ op: 'update', ref: { type: 'employees', id: '1' }, data: { type: 'employees', attributes: { salary: '99.00' } } }]);
    t.like((salary.body as Errors).errors[0], { status: '422', source: { pointer: '/atomic:operations/0/data/attributes/salary' } });
    t.deepEqual(await tableCounts(dir.models), before);
    const allowed = await operations([...onboarding('Alan'), note], ADMIN);
    t.is(allowed.status, 200, allowed.text);
    const created = (allowed.body as Results)['atomic:results'][6]!.data!;
    t.like(await dir.models.Note.findByPk(Number(created.id)), { notable_type: 'employees', notable_id: Number((allowed.body as Results)['atomic:results'][1]!.data!.id) });
  });

  test.serial(`${label}: ${CONCURRENT} operations requests and ${CONCURRENT} ordinary writes at once all succeed, each whole`, async (t) => {
    const before = await tableCounts(dir.models);
    const responses = await Promise.all(range(CONCURRENT).flatMap((i) => [
      operations(onboarding(`Batch${i}`)),
      client.request('POST', '/api/v1/employees', { data: { type: 'employees', attributes: { first_name: `Single${i}`, last_name: 'Hire' } } }),
    ]));
    t.deepEqual(responses.map((r) => r.status), range(CONCURRENT).flatMap(() => [200, 201]));
    const after = await tableCounts(dir.models);
    t.is(after.Employee, before.Employee + 2 * CONCURRENT);
    t.is(after.Position, before.Position + 2 * CONCURRENT);
    t.is(after.Department, before.Department + CONCURRENT);
    t.is(after.Task, before.Task + CONCURRENT);
  });

  if (db.name === 'sqlite') {
    test.serial(`${label}: past the write queue's bound, operations and writes are refused whole (503), never half written`, async (t) => {
      configureSqlite(dir.sequelize, { writeQueueLength: 3, writeQueueTimeout: 60_000 });
      try {
        const responses: HttpResponse[] = await Promise.all(range(CONCURRENT).flatMap((i) => [
          operations(onboarding(`Busy${i}`)),
          client.request('POST', '/api/v1/employees', { data: { type: 'employees', attributes: { first_name: `Busy${i}`, last_name: 'Single' } } }),
        ]));
        t.true(responses.every((r) => [200, 201, 503].includes(r.status)), responses.map((r) => r.status).join());
        t.true(responses.some((r) => r.status === 503), 'the bound refused some');
        for (const i of range(CONCURRENT)) {
          const written = await dir.models.Position.count({ where: { title: [`Busy${i} Engineer`, `Busy${i} Mentor`] } });
          const departments = await dir.models.Department.count({ where: { name: `Busy${i} Lab` } });
          const expected = responses[2 * i]!.status === 200 ? [2, 1] : [0, 0];
          t.deepEqual([written, departments], expected, `request ${i}: all or nothing`);
          t.is((responses[2 * i]!.body as Errors).errors?.[0]?.code ?? 'ok', responses[2 * i]!.status === 503 ? 'database_busy' : 'ok');
        }
      } finally {
        configureSqlite(dir.sequelize, { writeQueueLength: 1000, writeQueueTimeout: 60_000 });
      }
    });
  }
}
