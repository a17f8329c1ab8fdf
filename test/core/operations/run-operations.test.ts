import test, { type ExecutionContext } from 'ava';
import {
  configure, muralConfig, MuralError, OperationFailed, runOperations, withContext, type AtomicOperation, type AtomicResultsDocument, type Resource,
} from '../../../core/index.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, tableCounts, type Directory } from '../../support/directory.ts';

const ADMIN = { role: 'admin' };

/**
 * Atomic operations in-process: in order, in one transaction, through the
 * write engines of the Resource and relationship endpoints; a later
 * operation names what an earlier one added by its lid.
 */
for (const db of testDatabases()) {
  let dir: Directory;
  let resources: Array<typeof Resource>;

  test.before(async () => {
    dir = await openDirectory(db, 'run_operations', 20);
    resources = Object.values(dir.resources);
  });
  test.after.always(async () => dir?.sequelize.close());

  const run = (operations: readonly AtomicOperation[]) => runOperations({ 'atomic:operations': operations }, { resources });
  const employee = (lid: string, attributes: Record<string, unknown> = {}): AtomicOperation => ({
    op: 'add', data: { type: 'employees', lid, attributes: { first_name: 'Ada', last_name: 'Lovelace', age: 36, ...attributes } },
  });

  /** Runs operations that must fail; asserts the error and that no table changed. */
  async function refuse(t: ExecutionContext, operations: unknown, expected: { status: number; code: string; pointer: string }) {
    const before = await tableCounts(dir.models);
    const error = await t.throwsAsync(runOperations(operations as { 'atomic:operations': AtomicOperation[] }, { resources }));
    t.true(error instanceof MuralError, String(error));
    const [first] = (error as MuralError).toJsonapiErrors();
    t.like({ status: (error as MuralError).status, code: first!.code, pointer: first!.source?.pointer }, expected);
    t.deepEqual(await tableCounts(dir.models), before, 'nothing written');
    return error as MuralError;
  }

  test.serial(`${db.name}: adds an employee, a department and positions linked by lid; results in order, as show renders them`, async (t) => {
    const document = await run([
      employee('ada'),
      { op: 'add', data: { type: 'departments', lid: 'research', attributes: { name: 'Research' } } },
      {
        op: 'add',
        data: {
          type: 'positions', lid: 'p1', attributes: { title: 'Analyst', active: true },
          relationships: { employee: { data: { type: 'employees', lid: 'ada' } }, department: { data: { type: 'departments', lid: 'research' } } },
        },
      },
      { op: 'add', data: { type: 'positions', attributes: { title: 'Engineer' }, relationships: { employee: { data: { type: 'employees', lid: 'ada' } } } } },
    ]);
    t.deepEqual(document.jsonapi, { version: '1.1', ext: ['https://jsonapi.org/ext/atomic'] });
    const results = document['atomic:results'];
    t.deepEqual(results.map((r) => [r.data?.type, r.data?.lid]), [['employees', 'ada'], ['departments', 'research'], ['positions', 'p1'], ['positions', undefined]]);
    const ada = results[0]!.data!;
    const shown = (await dir.resources.EmployeeResource.find({ id: ada.id }).toJsonapi()).data as { attributes: Record<string, unknown> };
    // as the create endpoint, the saved model renders: MySQL keeps whole seconds of the times it was given
    const { created_at, updated_at } = ada.attributes;
    t.deepEqual(ada, { ...shown, attributes: { ...shown.attributes, created_at, updated_at }, lid: 'ada' }, 'the record as show renders it, with its lid');
    t.true(Math.abs(Date.parse(String(created_at)) - Date.parse(String(shown.attributes.created_at))) < 1000);
    const positions = await dir.models.Position.findAll({ where: { employee_id: Number(ada.id) }, order: [['id', 'ASC']] });
    t.deepEqual(positions.map((p) => [p.title, p.department_id]), [['Analyst', Number(results[1]!.data!.id)], ['Engineer', null]]);
  });

  test.serial(`${db.name}: updates and removes by lid, in one transaction; a record removed later still has its add's result`, async (t) => {
    const before = await dir.models.Employee.count();
    const document = await run([
      employee('tmp'),
      { op: 'update', ref: { type: 'employees', lid: 'tmp' }, data: { type: 'employees', attributes: { age: 40 } } },
      { op: 'update', data: { type: 'employees', lid: 'tmp', attributes: { last_name: 'Byron' } } },
      { op: 'remove', ref: { type: 'employees', lid: 'tmp' } },
    ]);
    const [added, updated, renamed, removed] = document['atomic:results'];
    t.is(added!.data!.attributes.age, 36);
    t.is(updated!.data!.attributes.age, 40);
    t.is(renamed!.data!.attributes.last_name, 'Byron');
    t.is(updated!.data!.id, added!.data!.id);
    t.deepEqual(removed, {});
    t.is(await dir.models.Employee.count(), before);
  });

  test.serial(`${db.name}: update by ref id or data id; an update's result is the record after that operation`, async (t) => {
    const [first, second] = await dir.models.Employee.findAll({ order: [['id', 'ASC']], limit: 2 });
    const document = await run([
      { op: 'update', ref: { type: 'employees', id: String(first!.id) }, data: { type: 'employees', id: String(first!.id), attributes: { age: 50 } } },
      { op: 'update', data: { type: 'employees', id: second!.id, attributes: { age: 51 } } },
      { op: 'update', ref: { type: 'employees', id: first!.id }, data: { type: 'employees', attributes: { age: 52 } } },
    ]);
    t.deepEqual(document['atomic:results'].map((r) => r.data!.attributes.age), [50, 51, 52]);
    t.is((await dir.models.Employee.findByPk(first!.id))!.age, 52);
  });

  test.serial(`${db.name}: relationship operations add, replace and remove members, of records added by lid too`, async (t) => {
    const free = await dir.models.Position.findAll({ where: { employee_id: null }, limit: 2 });
    const spare = free.length === 2 ? free : await dir.models.Position.bulkCreate([{ title: 'Spare 1' }, { title: 'Spare 2' }]);
    const [a, b] = spare.map((p) => ({ type: 'positions', id: String(p.id) }));
    const document = await run([
      employee('grace', { first_name: 'Grace', last_name: 'Hopper' }),
      { op: 'add', ref: { type: 'employees', lid: 'grace', relationship: 'positions' }, data: [a!, b!] },
      { op: 'add', data: { type: 'departments', lid: 'navy', attributes: { name: 'Navy' } } },
      { op: 'update', ref: { type: 'positions', id: a!.id, relationship: 'department' }, data: { type: 'departments', lid: 'navy' } },
      { op: 'remove', ref: { type: 'employees', lid: 'grace', relationship: 'positions' }, data: [b!] },
      { op: 'add', ref: { type: 'employees', lid: 'grace', relationship: 'teams' }, data: [{ type: 'teams', id: '1' }, { type: 'teams', id: '2' }] },
      { op: 'update', ref: { type: 'employees', lid: 'grace', relationship: 'teams' }, data: [{ type: 'teams', id: '2' }] },
    ]);
    const results = document['atomic:results'];
    t.deepEqual(results.slice(1).filter((_, i) => i !== 1), [{}, {}, {}, {}, {}]);
    const grace = Number(results[0]!.data!.id);
    const [positionA, positionB] = await Promise.all([dir.models.Position.findByPk(Number(a!.id)), dir.models.Position.findByPk(Number(b!.id))]);
    t.is(positionA!.employee_id, grace);
    t.is(positionA!.department_id, Number(results[2]!.data!.id));
    t.is(positionB!.employee_id, null);
    t.deepEqual((await dir.models.EmployeeTeam.findAll({ where: { employee_id: grace } })).map((m) => m.team_id), [2]);
  });

  test.serial(`${db.name}: a failure at operation 3 rolls back operations 0 to 2: a 422 at the attribute, under the operation`, async (t) => {
    const error = await refuse(t, { 'atomic:operations': [
      employee('a'),
      { op: 'add', data: { type: 'departments', lid: 'd', attributes: { name: 'Doomed' } } },
      { op: 'add', data: { type: 'positions', attributes: { title: 'Kept?' }, relationships: { employee: { data: { type: 'employees', lid: 'a' } } } } },
      { op: 'update', ref: { type: 'employees', lid: 'a' }, data: { type: 'employees', attributes: { first_name: '' } } },
    ] }, { status: 422, code: 'unprocessable_entity', pointer: '/atomic:operations/3/data/attributes/first_name' });
    t.true(error instanceof OperationFailed);
    t.is((error as OperationFailed).operation, '/atomic:operations/3');
  });

  test.serial(`${db.name}: 403, 404, 409 and unwritable members answer with pointers under the operation, nothing written`, async (t) => {
    const [first] = await dir.models.Employee.findAll({ order: [['id', 'ASC']], limit: 1 });
    const ref = { type: 'employees', id: String(first!.id) };
    await refuse(t, { 'atomic:operations': [employee('x'), { op: 'update', ref: { type: 'employees', id: '999999' }, data: { type: 'employees', attributes: { age: 1 } } }] },
      { status: 404, code: 'not_found', pointer: '/atomic:operations/1/ref' });
    await refuse(t, { 'atomic:operations': [employee('x'), { op: 'update', data: { type: 'employees', id: '999999', attributes: { age: 1 } } }] },
      { status: 404, code: 'not_found', pointer: '/atomic:operations/1/data' });
    await refuse(t, { 'atomic:operations': [employee('x'), { op: 'remove', ref: { type: 'positions', id: '999999' } }] },
      { status: 404, code: 'not_found', pointer: '/atomic:operations/1/ref' });
    await refuse(t, { 'atomic:operations': [employee('x'), { op: 'add', ref: { ...ref, relationship: 'positions' }, data: [{ type: 'positions', id: '999999' }] }] },
      { status: 404, code: 'not_found', pointer: '/atomic:operations/1/data/0' });
    await refuse(t, { 'atomic:operations': [employee('x'), { op: 'add', ref: { ...ref, relationship: 'nothing' }, data: [] }] },
      { status: 404, code: 'not_found', pointer: '/atomic:operations/1/ref/relationship' });
    await refuse(t, { 'atomic:operations': [employee('x'), { op: 'update', ref, data: { type: 'positions', attributes: {} } }] },
      { status: 409, code: 'conflict', pointer: '/atomic:operations/1/data/type' });
    await refuse(t, { 'atomic:operations': [employee('x'), { op: 'update', ref, data: { type: 'employees', id: '999999', attributes: {} } }] },
      { status: 409, code: 'conflict', pointer: '/atomic:operations/1/data/id' });
    await refuse(t, { 'atomic:operations': [employee('x'), { op: 'update', ref, data: { type: 'employees', lid: 'x', attributes: {} } }] },
      { status: 409, code: 'conflict', pointer: '/atomic:operations/1/data/lid' });
    await refuse(t, { 'atomic:operations': [employee('x'), employee('y', { salary: '10.00' })] },
      { status: 422, code: 'unprocessable_entity', pointer: '/atomic:operations/1/data/attributes/salary' });
    // to a guest, notes is hidden: it answers as 'nothing' does
    await refuse(t, { 'atomic:operations': [employee('x'), { op: 'update', ref: { ...ref, relationship: 'notes' }, data: [] }] },
      { status: 404, code: 'not_found', pointer: '/atomic:operations/1/ref/relationship' });
    await refuse(t, { 'atomic:operations': [employee('x'), { op: 'add', ref: { type: 'positions', id: '1', relationship: 'employee' }, data: [] }] },
      { status: 403, code: 'unsupported_operation', pointer: '/atomic:operations/1/ref' });
    // employees take no client-generated ids: JSON:API's 403
    await refuse(t, { 'atomic:operations': [employee('x'), { op: 'add', data: { type: 'employees', id: '5', attributes: { first_name: 'A', last_name: 'B' } } }] },
      { status: 403, code: 'client_id_unsupported', pointer: '/atomic:operations/1/data/id' });
  });

  test.serial(`${db.name}: guards decide as on the endpoints: an admin writes salary; a Resource guard is a 403 at the operation`, async (t) => {
    const document = await withContext(ADMIN, () => run([employee('rich', { salary: '120000.50' })]));
    t.is(Number(document['atomic:results'][0]!.data!.attributes.salary), 120000.5);
    class LockedDepartment extends dir.resources.DepartmentResource {
      static {
        this.type = 'departments';
        this.guard('isAdmin', { only: ['destroy'] });
      }
    }
    const locked = [dir.resources.EmployeeResource, LockedDepartment] as Array<typeof Resource>;
    const operations = [employee('z'), { op: 'add', data: { type: 'departments', lid: 'gone', attributes: { name: 'Gone' } } }, { op: 'remove', ref: { type: 'departments', lid: 'gone' } }];
    const before = await tableCounts(dir.models);
    const error = await t.throwsAsync(runOperations({ 'atomic:operations': operations } as never, { resources: locked }));
    t.like((error as MuralError).toJsonapiErrors()[0], { status: '403', code: 'forbidden', source: { pointer: '/atomic:operations/2/ref' } });
    t.deepEqual(await tableCounts(dir.models), before);
    const allowed = await withContext(ADMIN, () => runOperations({ 'atomic:operations': operations } as never, { resources: locked }));
    t.deepEqual(allowed['atomic:results'][2], {});
  });

  test.serial(`${db.name}: every operation shares one transaction: one BEGIN and one COMMIT, and an add costs its INSERT alone`, async (t) => {
    const transactions = () => dir.queries.filter((q) => /\b(BEGIN|START TRANSACTION|COMMIT)\b/i.test(q));
    dir.resetQueries();
    await run([employee('one')]);
    const single = dir.queries.length;
    t.is(dir.queries.filter((q) => /\bINSERT\b/.test(q)).length, 1);
    dir.resetQueries();
    await run([employee('one'), employee('two'), employee('three')]);
    t.is(transactions().length, 2, transactions().join('\n'));
    t.is(dir.queries.length, single + 2, 'each further add: its INSERT alone');
  });

  test.serial(`${db.name}: beforeCommit hooks run once every operation is done; one failing rolls back all and names its operation`, async (t) => {
    const log: string[] = [];
    let failOn: string | undefined;
    class TracedDepartment extends dir.resources.DepartmentResource {
      static {
        this.type = 'departments';
        this.afterSave((department: { name: string }) => void log.push(`save ${department.name}`));
        this.beforeCommit((department: { name: string }) => {
          log.push(`commit ${department.name}`);
          if (failOn === department.name) throw new (class extends MuralError {
            readonly status = 409;
            readonly code = 'conflict';
            readonly title = 'Conflict';
          })('refused at commit');
        });
      }
    }
    const traced = [TracedDepartment] as Array<typeof Resource>;
    const operations = ['A', 'B', 'C'].map((name) => ({ op: 'add', data: { type: 'departments', attributes: { name } } }));
    await runOperations({ 'atomic:operations': operations } as never, { resources: traced });
    t.deepEqual(log, ['save A', 'save B', 'save C', 'commit A', 'commit B', 'commit C']);
    failOn = 'B';
    const before = await tableCounts(dir.models);
    const error = await t.throwsAsync(runOperations({ 'atomic:operations': operations } as never, { resources: traced }));
    t.like((error as MuralError).toJsonapiErrors()[0], { status: '409', source: { pointer: '/atomic:operations/1' } });
    t.deepEqual(await tableCounts(dir.models), before);
  });

  test.serial(`${db.name}: a stale ref.meta.version is an OperationFailed with status 412, after earlier operations ran and were undone`, async (t) => {
    const version = (await dir.models.Employee.findByPk(7))!.lock_version;
    const ref = (v: number) => ({ type: 'employees', id: '7', meta: { version: String(v) } });
    const error = await refuse(t, { 'atomic:operations': [employee('undone'), { op: 'remove', ref: ref(version + 1) }] }, {
      status: 412, code: 'precondition_failed', pointer: '/atomic:operations/1/ref/meta/version',
    });
    t.true(error instanceof OperationFailed);
    await run([{ op: 'remove', ref: ref(version) }]);
    t.is(await dir.models.Employee.findByPk(7), null);
  });

  test.serial(`${db.name}: more than maxOperations is a 400 at /atomic:operations, before any query`, async (t) => {
    const previous = muralConfig.maxOperations;
    configure({ maxOperations: 2 });
    try {
      dir.resetQueries();
      await refuse(t, { 'atomic:operations': [employee('a'), employee('b'), employee('c')] }, { status: 400, code: 'too_many_operations', pointer: '/atomic:operations' });
      t.deepEqual(dir.queries.filter((q) => !/count\(\*\)/i.test(q)), []);
      t.is((await run([employee('a'), employee('b')]))['atomic:results'].length, 2);
    } finally {
      configure({ maxOperations: previous });
    }
  });

  test.serial(`${db.name}: malformed documents and lids are a 400 at the member, before any query`, async (t) => {
    const ops = (...list: unknown[]) => ({ 'atomic:operations': [employee('a'), ...list] });
    const cases: Array<[unknown, string, string]> = [
      [[], 'invalid_document', ''],
      [{}, 'invalid_document', '/atomic:operations'],
      [{ 'atomic:operations': [] }, 'invalid_document', '/atomic:operations'],
      [{ 'atomic:operations': [employee('a')], data: {} }, 'invalid_document', '/data'],
      [ops('add'), 'invalid_operation', '/atomic:operations/1'],
      [ops({ op: 'create', data: {} }), 'invalid_operation', '/atomic:operations/1/op'],
      [ops({ op: 'remove' }), 'missing', '/atomic:operations/1/ref'],
      [ops({ op: 'add' }), 'missing', '/atomic:operations/1/data'],
      [ops({ op: 'add', data: { attributes: {} } }), 'missing', '/atomic:operations/1/data/type'],
      [ops({ op: 'add', data: { type: 'wizards' } }), 'unknown_type', '/atomic:operations/1/data/type'],
      [ops({ op: 'remove', ref: { type: 'wizards', id: '1' } }), 'unknown_type', '/atomic:operations/1/ref/type'],
      [ops({ op: 'remove', ref: { type: 'employees', lid: 'nobody' } }), 'unknown_lid', '/atomic:operations/1/ref/lid'],
      [ops({ op: 'remove', ref: { type: 'positions', lid: 'a' } }), 'lid_type_mismatch', '/atomic:operations/1/ref/type'],
      [ops({ op: 'remove', ref: { type: 'employees', id: '1', lid: 'a' } }), 'invalid_ref', '/atomic:operations/1/ref'],
      [ops({ op: 'remove', ref: { type: 'employees' } }), 'missing', '/atomic:operations/1/ref'],
      [ops({ op: 'remove', ref: { type: 'employees', id: {} } }), 'missing', '/atomic:operations/1/ref/id'],
      [ops({ op: 'remove', ref: { type: 'employees', id: '1' }, data: {} }), 'invalid_operation', '/atomic:operations/1/data'],
      [ops({ op: 'remove', href: '/employees/1' }), 'unsupported_href', '/atomic:operations/1/href'],
      [ops({ op: 'add', ref: { type: 'employees', id: '1' }, data: { type: 'employees' } }), 'invalid_ref', '/atomic:operations/1/ref'],
      [ops(employee('a')), 'duplicate_lid', '/atomic:operations/1/data/lid'],
      [ops(employee('')), 'invalid_lid', '/atomic:operations/1/data/lid'],
      [ops({ op: 'update', data: { type: 'employees', attributes: {} } }), 'missing', '/atomic:operations/1/data'],
      [ops({ op: 'add', ref: { type: 'employees', lid: 'a', relationship: 'teams' } }), 'missing', '/atomic:operations/1/data'],
      [ops({ op: 'add', ref: { type: 'employees', lid: 'a', relationship: 7 }, data: [] }), 'invalid_ref', '/atomic:operations/1/ref/relationship'],
      [ops({ op: 'add', ref: { type: 'employees', lid: 'a', relationship: 'positions' }, data: [{ type: 'positions', lid: 'a' }] }), 'lid_type_mismatch', '/atomic:operations/1/data/0/type'],
      [ops({ op: 'add', data: { type: 'positions', attributes: { title: 'T' }, relationships: { employee: { data: { type: 'employees', lid: 'later' } } } } }, employee('later')),
        'unknown_lid', '/atomic:operations/1/data/relationships/employee/data/lid'],
      [ops({ op: 'add', data: { type: 'positions', relationships: { employee: { data: { type: 'employees', id: '1', lid: 'a' } } } } }),
        'invalid_identity', '/atomic:operations/1/data/relationships/employee/data'],
      [{ 'atomic:operations': [{ op: 'add', data: { type: 'positions', lid: 'self', relationships: { employee: { data: { type: 'positions', lid: 'self' } } } } }] },
        'unknown_lid', '/atomic:operations/0/data/relationships/employee/data/lid'],
      [{ 'atomic:operations': [{ op: 'add', data: { type: 'employees', attributes: { first_name: 'bad\u0000' } } }] }, 'invalid_character', '/atomic:operations/0/data/attributes/first_name'],
    ];
    for (const [document, code, pointer] of cases) {
      dir.resetQueries();
      const error = await t.throwsAsync(runOperations(document as never, { resources }), undefined, JSON.stringify(document));
      t.like((error as MuralError).toJsonapiErrors()[0], { status: '400', code, source: { pointer } }, JSON.stringify(document));
      t.deepEqual(dir.queries, [], 'refused before any query');
    }
  });

  test.serial(`${db.name}: in-process callers get typed results`, async (t) => {
    const document: AtomicResultsDocument = await run([employee('typed')]);
    t.is(typeof document['atomic:results'][0]!.data!.id, 'string');
  });
}

test('operations on Resources of two databases are a 400: one transaction cannot span them', async (t) => {
  const [one, other] = await Promise.all([openDirectory({ name: 'sqlite', url: ':memory:' }, 'ops_one', 2), openDirectory({ name: 'sqlite', url: ':memory:' }, 'ops_two', 2)]);
  try {
    const resources = [one.resources.EmployeeResource, other.resources.DepartmentResource] as Array<typeof Resource>;
    const operations = [
      { op: 'add', data: { type: 'employees', attributes: { first_name: 'A', last_name: 'B' } } },
      { op: 'add', data: { type: 'departments', attributes: { name: 'Elsewhere' } } },
    ];
    const before = [await tableCounts(one.models), await tableCounts(other.models)];
    const error = await t.throwsAsync(runOperations({ 'atomic:operations': operations } as never, { resources }));
    t.like((error as MuralError).toJsonapiErrors()[0], { status: '400', code: 'mixed_databases', source: { pointer: '/atomic:operations/1' } });
    t.deepEqual([await tableCounts(one.models), await tableCounts(other.models)], before);
  } finally {
    await Promise.all([one.sequelize.close(), other.sequelize.close()]);
  }
});
