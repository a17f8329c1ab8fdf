import test from 'ava';
import { Op } from 'sequelize';
import { configure, withContext } from '../../../core/index.ts';
import { PAUSE_AFTER_MISSES, PAUSE_FOR } from '../../../core/sideload/prefetch-choice.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, type Directory } from '../../support/directory.ts';
import { assertDepartmentsMatchRows, departmentQueries, readsThroughPositions, readsThroughTeams, wrappingResolve, type Linkage } from '../../support/nested-prefetch.ts';

const INCLUDE = { include: 'positions.department', page: { size: 6 }, sort: 'id' };

/**
 * `include=positions.department` on a database read through a pool: the
 * departments are read beside the positions, naming them through the
 * positions' query as a subquery, so the request waits on one round trip
 * fewer; the document is the one the positions' own keys would have given,
 * even when a write lands between the two statements.
 */
for (const db of testDatabases('nested_prefetch')) {
  let dir: Directory;
  const pooled = db.name !== 'sqlite';
  test.before(async () => {
    dir = await openDirectory(db, 'nested_prefetch', 40);
    // whatever this machine's round trips: `auto` has a test file of its own
    configure({ nestedPrefetch: 'always' });
  });
  test.after.always(async () => {
    configure({ nestedPrefetch: 'auto' });
    await dir?.sequelize.close();
  });

  if (!pooled) {
    test.serial(`${db.name}: one connection reads one statement at a time, so departments wait for the positions' keys`, async (t) => {
      dir.resetQueries();
      const doc = await dir.resources.EmployeeResource.all(INCLUDE).toJsonapi();
      const departments = departmentQueries(dir);
      t.is(departments.length, 1);
      t.false(readsThroughPositions(departments[0]!));
      await assertDepartmentsMatchRows(t, dir, doc);
    });
    continue;
  }

  test.serial(`${db.name}: the departments of included positions are read beside the positions, through their query`, async (t) => {
    const { EmployeeResource, PositionResource, DepartmentResource } = dir.resources;
    let departmentsAsked!: () => void;
    const asked = new Promise<void>((resolve) => (departmentsAsked = resolve));
    let positionsWaited = false;
    dir.resetQueries();
    const doc = await wrappingResolve(DepartmentResource, (original) => function (this: unknown, ...args) {
      departmentsAsked();
      return original.apply(this, args);
    }, () => wrappingResolve(PositionResource, (original) => async function (this: unknown, ...args) {
      // the positions are held back until the departments are asked for: in turn, this would never end
      positionsWaited = await Promise.race([asked.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 3000))]);
      return original.apply(this, args);
    }, () => EmployeeResource.all(INCLUDE).toJsonapi()));
    t.true(positionsWaited, 'the departments query started before the positions came back');
    const departments = departmentQueries(dir);
    t.is(departments.length, 1, 'one departments query, as without the prefetch');
    t.true(readsThroughPositions(departments[0]!), departments[0]);
    t.is(dir.queries.length, 3, 'employees, positions, departments');
    await assertDepartmentsMatchRows(t, dir, doc);
  });

  test.serial(`${db.name}: a position written between the two statements still gets its department, read by its key`, async (t) => {
    const { EmployeeResource, PositionResource, DepartmentResource } = dir.resources;
    const { Department, Position, Employee } = dir.models;
    const first = (await Employee.findAll({ order: [['id', 'ASC']], limit: 1 }))[0]!;
    let prefetched!: () => void;
    const prefetchDone = new Promise<void>((resolve) => (prefetched = resolve));
    let written: { department: number; position: number } | undefined;
    dir.resetQueries();
    const doc = await wrappingResolve(DepartmentResource, (original) => async function (this: unknown, ...args) {
      try {
        return await original.apply(this, args);
      } finally {
        prefetched();
      }
    }, () => wrappingResolve(PositionResource, (original) => async function (this: unknown, ...args) {
      if (!written) {
        await prefetchDone;
        const department = await Department.create({ name: 'Written between' });
        const position = await Position.create({ title: 'Late hire', employee_id: first.get('id'), department_id: department.get('id') });
        written = { department: department.get('id') as number, position: position.get('id') as number };
      }
      return original.apply(this, args);
    }, () => EmployeeResource.all(INCLUDE).toJsonapi()));
    try {
      const departments = departmentQueries(dir);
      t.is(departments.length, 2, 'the prefetch, then the usual query');
      t.true(readsThroughPositions(departments[0]!));
      t.false(readsThroughPositions(departments[1]!));
      t.true(doc.included!.some((r) => r.type === 'departments' && r.id === String(written!.department)), 'the new department is included');
      await assertDepartmentsMatchRows(t, dir, doc);
    } finally {
      await Position.destroy({ where: { id: written!.position } });
      await Department.destroy({ where: { id: written!.department } });
    }
  });

  test.serial(`${db.name}: a deep filter on the departments leaves them to the usual query, which it narrows`, async (t) => {
    dir.resetQueries();
    const doc = await dir.resources.EmployeeResource.all({ ...INCLUDE, page: { size: 40 }, filter: { 'positions.department.name': 'Design' } }).toJsonapi();
    const departments = departmentQueries(dir);
    t.is(departments.length, 1);
    t.false(readsThroughPositions(departments[0]!));
    t.deepEqual([...new Set(doc.included!.filter((r) => r.type === 'departments').map((r) => r.attributes.name))], ['Design']);
  });

  test.serial(`${db.name}: a relationship whose prefetches keep missing pauses them for ${PAUSE_FOR} loads, then tries again`, async (t) => {
    const { EmployeeResource, DepartmentResource } = dir.resources;
    const prefetching = async () => {
      dir.resetQueries();
      const doc = await EmployeeResource.all(INCLUDE).toJsonapi();
      return { doc, through: departmentQueries(dir).some(readsThroughPositions) };
    };
    t.true((await prefetching()).through, 'a prefetch that hits starts the count of misses afresh');
    // a department the base scope hides is named by a position but never read: every prefetch misses it
    const first = (await dir.models.Employee.findOne({ order: [['id', 'ASC']] }))!;
    const hiddenId = (await dir.models.Position.findOne({ where: { employee_id: first.get('id') } }))!.get('department_id');
    const prototype = DepartmentResource.prototype as { baseScope(): unknown };
    const original = prototype.baseScope;
    prototype.baseScope = function (this: { adapter: { filter(scope: unknown, clause: unknown): unknown } }) {
      const scope = original.call(this);
      return this.adapter.filter(scope, { column: 'id', operator: 'eq', negated: true, values: [hiddenId], caseInsensitive: false, typeName: 'integer' });
    };
    const through: boolean[] = [];
    try {
      for (let i = 0; i < PAUSE_AFTER_MISSES + 2; i++) {
        const { doc, through: prefetched } = await prefetching();
        t.false(doc.included!.some((r) => r.type === 'departments' && r.id === String(hiddenId)), 'the hidden department stays out');
        through.push(prefetched);
      }
    } finally {
      prototype.baseScope = original;
    }
    t.deepEqual(through, [...Array(PAUSE_AFTER_MISSES).fill(true), false, false], 'misses in a row pause the prefetch');
    while (through.length < PAUSE_AFTER_MISSES + PAUSE_FOR) through.push((await prefetching()).through);
    t.false(through.slice(PAUSE_AFTER_MISSES).some(Boolean), `no prefetch for ${PAUSE_FOR} loads`);
    t.deepEqual([(await prefetching()).through, (await prefetching()).through], [true, true], 'then one, which hits, and they go on');
  });

  test.serial(`${db.name}: reads at once with writes moving positions between departments: every document links exactly the departments it includes`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const { Position, Department, Employee } = dir.models;
    const employees = (await Employee.findAll({ order: [['id', 'ASC']], limit: 6 })).map((e) => e.get('id') as number);
    const positions = await Position.findAll({ where: { employee_id: employees } });
    const departments = (await Department.findAll()).map((d) => d.get('id') as number);
    const original = new Map(positions.map((p) => [p.get('id') as number, p.get('department_id') as number | null]));
    let prefetched = 0;
    try {
      for (let round = 0; round < 8; round++) {
        dir.resetQueries();
        const moves = positions.slice(0, 6).map((position, i) =>
          Position.update({ department_id: departments[(round * 7 + i * 3) % departments.length]! }, { where: { id: position.get('id') } }));
        const reads = Array.from({ length: 6 }, () => EmployeeResource.all(INCLUDE).toJsonapi());
        const [docs] = await Promise.all([Promise.all(reads), Promise.all(moves)]);
        prefetched += departmentQueries(dir).filter(readsThroughPositions).length;
        for (const doc of docs) {
          const included = (doc.included ?? []).filter((r) => r.type === 'departments').map((r) => r.id).sort();
          const linked = (doc.included ?? []).filter((r) => r.type === 'positions')
            .map((p) => (p.relationships!.department as { data: Linkage }).data?.id).filter((id): id is string => id !== undefined);
          t.deepEqual(included, [...new Set(linked)].sort());
        }
      }
      t.true(prefetched > 0, 'the reads prefetched');
    } finally {
      for (const [id, department] of original) await Position.update({ department_id: department }, { where: { id } });
    }
  });

  test.serial(`${db.name}: a write's response, read once the write has committed, prefetches too, from where the write went`, async (t) => {
    const { EmployeeResource, PositionResource } = dir.resources;
    const position = (await dir.models.Position.findOne({ order: [['id', 'ASC']] }))!;
    const other = (await dir.models.Department.findOne({ where: { id: { [Op.ne]: position.get('department_id') } } }))!;
    await PositionResource.find({ id: String(position.get('id')) }).update({
      data: { type: 'positions', id: String(position.get('id')), relationships: { department: { data: { type: 'departments', id: String(other.get('id')) } } } },
    });
    try {
      const proxy = EmployeeResource.find({ id: String(position.get('employee_id')), include: 'positions.department' });
      dir.resetQueries();
      t.true(await proxy.update({ data: { type: 'employees', id: String(position.get('employee_id')), attributes: { age: 41 } } }));
      const written = await proxy.toWrittenJsonapi();
      t.true(departmentQueries(dir).some(readsThroughPositions));
      const linkage = written.included!.find((r) => r.type === 'positions' && r.id === String(position.get('id')))!.relationships!.department;
      t.deepEqual((linkage as { data: Linkage }).data, { type: 'departments', id: String(other.get('id')) });
      await assertDepartmentsMatchRows(t, dir, written);
    } finally {
      await dir.models.Position.update({ department_id: position.get('department_id') }, { where: { id: position.get('id') } });
    }
  });

  test.serial(`${db.name}: polymorphic parents: of notes' notables, the teams have their departments read beside them, and the document is the one without`, async (t) => {
    const read = async (mode: 'always' | 'never') => {
      configure({ nestedPrefetch: mode });
      dir.resetQueries();
      const doc = await withContext({ role: 'admin' }, () => dir.resources.NoteResource.all({ include: 'notable.department', page: { size: 50 }, sort: 'id' }).toJsonapi());
      return { doc, through: departmentQueries(dir).filter(readsThroughTeams).length, departments: departmentQueries(dir).length };
    };
    try {
      const prefetched = await read('always');
      const usual = await read('never');
      t.true(prefetched.doc.included!.some((r) => r.type === 'teams') && prefetched.doc.included!.some((r) => r.type === 'employees'), 'notables of both kinds');
      t.is(prefetched.through, 1);
      t.is(prefetched.departments, usual.departments, 'the prefetch instead of the teams\' departments query, not beside it');
      t.deepEqual(prefetched.doc, usual.doc);
    } finally {
      configure({ nestedPrefetch: 'always' });
    }
  });

  test.serial(`${db.name}: never turns the prefetch off`, async (t) => {
    configure({ nestedPrefetch: 'never' });
    try {
      dir.resetQueries();
      const doc = await dir.resources.EmployeeResource.all(INCLUDE).toJsonapi();
      t.false(departmentQueries(dir).some(readsThroughPositions));
      await assertDepartmentsMatchRows(t, dir, doc);
    } finally {
      configure({ nestedPrefetch: 'always' });
    }
  });

  test.serial(`${db.name}: the records a prefetch keeps count against maxIncludedRecords; it asks for at most the budget left when it starts`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const original = EmployeeResource.maxIncludedRecords;
    const positions = await dir.models.Position.count({ where: { employee_id: (await dir.models.Employee.findAll({ order: [['id', 'ASC']], limit: 6 })).map((e) => e.get('id') as number) } });
    EmployeeResource.maxIncludedRecords = positions;
    try {
      dir.resetQueries();
      const error = await t.throwsAsync(EmployeeResource.all(INCLUDE).toJsonapi());
      t.like(error, { status: 400, code: 'too_many_included_records' });
      const departments = departmentQueries(dir);
      t.true(departments.length === 1 && readsThroughPositions(departments[0]!));
      t.regex(departments[0]!, new RegExp(`LIMIT (0, )?${positions + 1}\\b`));
    } finally {
      EmployeeResource.maxIncludedRecords = original;
    }
  });
}
