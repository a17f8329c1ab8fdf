import test from 'ava';
import { Op } from 'sequelize';
import { configure, type JsonApiDocument, type ResourceObject } from '../../../core/index.ts';
import { PAUSE_AFTER_MISSES, PAUSE_FOR, PREFETCH_AFTER_MS, PREFETCH_WHILE_SIDELOADING, PROBE_EVERY } from '../../../core/sideload/nested-prefetch.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, type Directory } from '../../support/directory.ts';

type Linkage = { type: string; id: string } | null;

const INCLUDE = { include: 'positions.department', page: { size: 6 }, sort: 'id' };
const departmentQueries = (dir: Directory) => dir.queries.filter((sql) => /FROM\s+["`]departments["`]/i.test(sql));
/** A departments query naming its records through the positions' conditions, as a subquery, rather than by loaded keys. */
const readsThroughPositions = (sql: string) => /IN \(SELECT\s+["`]Position["`]\.["`]department_id["`] FROM ["`]positions["`]/i.test(sql);

/** Every included position links the department its row names, and `included` holds exactly those departments. */
async function assertDepartmentsMatchRows(t: import('ava').ExecutionContext, dir: Directory, doc: JsonApiDocument): Promise<void> {
  const positions = (doc.included ?? []).filter((r) => r.type === 'positions');
  t.true(positions.length > 0);
  const rows = await dir.models.Position.findAll({ where: { id: positions.map((p) => Number(p.id)) } });
  const departmentOf = new Map(rows.map((row) => [String(row.get('id')), row.get('department_id') as number | null]));
  const expected = new Set<string>();
  for (const position of positions) {
    const id = departmentOf.get(position.id);
    const linkage = (position.relationships!.department as { data: Linkage }).data;
    t.deepEqual(linkage, id === null || id === undefined ? null : { type: 'departments', id: String(id) }, `position ${position.id}`);
    if (id !== null && id !== undefined) expected.add(String(id));
  }
  const included = (doc.included ?? []).filter((r: ResourceObject) => r.type === 'departments').map((r) => r.id);
  t.deepEqual([...included].sort(), [...expected].sort(), 'each department once');
}

/** Runs `body` with the Resource's `resolve` wrapped, then puts it back. */
async function wrappingResolve<T>(resource: { prototype: object }, wrap: (original: (...args: unknown[]) => Promise<unknown[]>) => (...args: unknown[]) => Promise<unknown[]>, body: () => Promise<T>): Promise<T> {
  const prototype = resource.prototype as { resolve: (...args: unknown[]) => Promise<unknown[]> };
  const own = Object.prototype.hasOwnProperty.call(prototype, 'resolve');
  const original = prototype.resolve;
  prototype.resolve = wrap(original);
  try {
    return await body();
  } finally {
    if (own) prototype.resolve = original;
    else delete (prototype as { resolve?: unknown }).resolve;
  }
}

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
    // whatever this machine's round trips: `auto` has a test of its own
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

  test.serial(`${db.name}: a relationship whose prefetches keep missing pauses them for ${PAUSE_FOR} chances, then tries again`, async (t) => {
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
    for (let chance = 3; chance < PAUSE_FOR; chance++) through.push((await prefetching()).through);
    t.false(through.slice(PAUSE_AFTER_MISSES).some(Boolean), `no prefetch for ${PAUSE_FOR - 1} chances`);
    t.deepEqual([(await prefetching()).through, (await prefetching()).through], [true, true], 'then one, which hits, and they go on');
  });

  test.serial(`${db.name}: while more than ${PREFETCH_WHILE_SIDELOADING} requests sideload at once, the others wait for their positions' keys`, async (t) => {
    const { EmployeeResource, PositionResource } = dir.resources;
    const requests = PREFETCH_WHILE_SIDELOADING + 2;
    let arrived = 0;
    let everyoneArrived!: () => void;
    const barrier = new Promise<void>((resolve) => (everyoneArrived = resolve));
    dir.resetQueries();
    const docs = await wrappingResolve(PositionResource, (original) => async function (this: unknown, ...args) {
      if (++arrived === requests) everyoneArrived();
      await barrier;
      return original.apply(this, args);
    }, () => Promise.all(Array.from({ length: requests }, () => EmployeeResource.all(INCLUDE).toJsonapi())));
    const departments = departmentQueries(dir);
    t.is(departments.filter(readsThroughPositions).length, PREFETCH_WHILE_SIDELOADING);
    t.is(departments.length, requests);
    for (const doc of docs) t.deepEqual(doc, docs[0]);
    await assertDepartmentsMatchRows(t, dir, docs[0]!);
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

  test.serial(`${db.name}: auto prefetches once the positions take ${PREFETCH_AFTER_MS} ms or more to arrive, as across a network, and stops when they come back at once`, async (t) => {
    const { EmployeeResource, PositionResource } = dir.resources;
    const prefetching = async () => {
      dir.resetQueries();
      await EmployeeResource.all(INCLUDE).toJsonapi();
      return departmentQueries(dir).some(readsThroughPositions);
    };
    configure({ nestedPrefetch: 'auto' });
    try {
      // positions served from memory: the parents' statements take no time, and a prefetch would not pay
      const atOnce = await wrappingResolve(PositionResource, (original) => {
        let kept: Promise<unknown[]> | undefined;
        return function (this: unknown, ...args) {
          kept ??= original.apply(this, args);
          return kept;
        };
      }, async () => {
        const seen: boolean[] = [];
        // while prefetching, one load in PROBE_EVERY is timed without
        for (let i = 0; i < PROBE_EVERY + 2; i++) seen.push(await prefetching());
        return seen;
      });
      t.deepEqual(atOnce.slice(-2), [false, false], 'no prefetch once the positions have come back at once');
      // positions 20 ms away
      const far = await wrappingResolve(PositionResource, (original) => async function (this: unknown, ...args) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return original.apply(this, args);
      }, async () => [await prefetching(), await prefetching(), await prefetching()]);
      t.deepEqual(far.slice(1), [true, true], 'a prefetch from the request after the first slow one');
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
