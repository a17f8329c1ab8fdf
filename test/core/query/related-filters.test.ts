import test from 'ava';
import { BadRequestError, InvalidQueryError, withContext, type JsonApiDocument, type QueryParams, type ResourceObject } from '../../../core/index.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, type Directory } from '../../support/directory.ts';

type Row = Record<string, unknown>;
const ids = (doc: JsonApiDocument) => (doc.data as ResourceObject[]).map((r) => Number(r.id));
const sorted = (values: Iterable<number>) => [...new Set(values)].sort((a, b) => a - b);
const ALL = { sort: 'id', page: { size: 1000 } } as const;

/**
 * `filter[has]` and `filter[has_no]`: parents filtered by their related
 * records, in the one query that reads the page. Each expectation is
 * computed in JavaScript from the seeded rows.
 */
for (const db of testDatabases('related_filters')) {
  let dir: Directory;
  let employees: Row[];
  let positions: Row[];
  let departments: Row[];
  test.before(async () => {
    dir = await openDirectory(db, 'related_filters', 120);
    const plain = { raw: true } as const;
    employees = (await dir.models.Employee.findAll(plain)) as unknown as Row[];
    positions = (await dir.models.Position.findAll(plain)) as unknown as Row[];
    departments = (await dir.models.Department.findAll(plain)) as unknown as Row[];
  });
  test.after.always(async () => dir?.sequelize.close());

  const employeesWhere = (match: (p: Row) => boolean) => sorted(positions.filter(match).map((p) => Number(p.employee_id)));
  const departmentName = (id: unknown) => String(departments.find((d) => d.id === id)?.name ?? '');

  async function read(params: QueryParams, resource: 'EmployeeResource' | 'PositionResource' | 'NoteResource' = 'EmployeeResource') {
    dir.resetQueries();
    const doc = await dir.resources[resource].all({ ...ALL, ...params }).toJsonapi();
    return { doc, ids: ids(doc), queries: [...dir.queries] };
  }

  test.serial(`${db.name}: has_many: employees with at least one position so titled, ignoring case, once each, in one query`, async (t) => {
    const title = String(positions[0]!.title);
    const { ids: found, queries } = await read({ filter: { has: { 'positions.title': title.toUpperCase() } } });
    t.deepEqual(found, employeesWhere((p) => p.title === title));
    t.true(found.length > 1 && found.length < employees.length);
    t.is(queries.length, 1, 'no query per employee, no separate query for positions');
    t.regex(queries[0]!, /IN \(SELECT/);
  });

  test.serial(`${db.name}: conditions on one relationship describe the same related record`, async (t) => {
    const department = positions.find((p) => p.active && p.department_id !== null)!.department_id as number;
    const same = await read({ filter: { has: { 'positions.active': 'true', 'positions.department_id': String(department) } } });
    t.deepEqual(same.ids, employeesWhere((p) => p.active === true || p.active === 1 ? p.department_id === department : false));
    const either = sorted(employeesWhere((p) => Boolean(p.active)).filter((e) => employeesWhere((p) => p.department_id === department).includes(e)));
    t.true(either.length > same.ids.length, 'some employee has an active position and another in the department, and is left out');
  });

  test.serial(`${db.name}: has_no: employees with no related record matching, including those with none at all`, async (t) => {
    const { ids: found } = await read({ filter: { has_no: { 'positions.active': 'true' } } });
    const active = new Set(employeesWhere((p) => Boolean(p.active)));
    t.deepEqual(found, sorted(employees.map((e) => Number(e.id)).filter((id) => !active.has(id))));
    t.true(found.length > 0);
  });

  test.serial(`${db.name}: paths go through several relationships, with operators and LIKE escaping`, async (t) => {
    const { ids: found, queries } = await read({ filter: { has: { 'positions.department.name': { prefix: 'eng' } } } });
    t.deepEqual(found, employeesWhere((p) => departmentName(p.department_id).toLowerCase().startsWith('eng')));
    t.true(found.length > 0);
    t.is(queries.length, 1);
    const none = await read({ filter: { has: { 'positions.department.name': { prefix: '%' } } } });
    t.deepEqual(none.ids, [], '% is a literal character, not a wildcard');
  });

  test.serial(`${db.name}: has and ordinary filters combine, and pagination counts and stats count parents once`, async (t) => {
    const title = String(positions[1]!.title);
    const expected = employeesWhere((p) => p.title === title).filter((id) => (employees.find((e) => e.id === id)!.age as number | null ?? 0) > 30);
    dir.resetQueries();
    const doc = await dir.resources.EmployeeResource.all({
      filter: { has: { 'positions.title': title }, age: { gt: '30' } }, stats: { total: 'count' }, page: { size: 2 }, sort: 'id',
    }).toJsonapi();
    t.deepEqual(ids(doc), expected.slice(0, 2));
    t.is((doc.meta!.stats as { total: { count: number } }).total.count, expected.length);
    t.is(dir.queries.length, 2, 'the page and the count');
  });

  test.serial(`${db.name}: belongs_to, and has_no on belongs_to keeps records whose key is null`, async (t) => {
    const { ids: found } = await read({ filter: { has: { 'department.name': departmentName(1) } } }, 'PositionResource');
    t.deepEqual(found, sorted(positions.filter((p) => p.department_id === 1).map((p) => Number(p.id))));
    const without = await read({ filter: { has_no: { 'department.name': departmentName(1) } } }, 'PositionResource');
    t.deepEqual(without.ids, sorted(positions.filter((p) => p.department_id !== 1).map((p) => Number(p.id))));
    t.true(positions.some((p) => p.department_id === null));
  });

  test.serial(`${db.name}: many_to_many through its join table`, async (t) => {
    const links = (await dir.models.EmployeeTeam.findAll({ raw: true })) as unknown as Row[];
    const teams = (await dir.models.Team.findAll({ raw: true })) as unknown as Row[];
    const wanted = new Set(teams.filter((team) => String(team.name).toLowerCase().endsWith('platform')).map((team) => team.id));
    t.true(wanted.size > 0);
    const { ids: found, queries } = await read({ filter: { has: { 'teams.name': { suffix: 'Platform' } } } });
    t.deepEqual(found, sorted(links.filter((l) => wanted.has(l.team_id)).map((l) => Number(l.employee_id))));
    t.is(queries.length, 1);
  });

  test.serial(`${db.name}: polymorphic has_many and belongs_to, a custom filter operator inside`, async (t) => {
    const notes = (await dir.models.Note.findAll({ raw: true })) as unknown as Row[];
    const admin = <T>(fn: () => Promise<T>) => withContext({ role: 'admin' }, fn);
    const body = String(notes.find((n) => n.notable_type === 'employees')!.body);
    const noted = await admin(() => read({ filter: { has: { 'notes.body': body } } }));
    t.deepEqual(noted.ids, sorted(notes.filter((n) => n.notable_type === 'employees' && n.body === body).map((n) => Number(n.notable_id))));
    const ada = await admin(() => read({ filter: { has: { 'notable.name': 'ada' } } }, 'NoteResource'));
    const adas = new Set(employees.filter((e) => e.first_name === 'Ada' || e.last_name === 'Ada').map((e) => e.id));
    const teams = (await dir.models.Team.findAll({ raw: true })) as unknown as Row[];
    const named = (type: string, id: unknown) =>
      type === 'employees' ? adas.has(id) : type === 'teams' ? teams.some((x) => x.id === id && String(x.name).toLowerCase() === 'ada') : departmentName(id).toLowerCase() === 'ada';
    t.deepEqual(ada.ids, sorted(notes.filter((n) => named(String(n.notable_type), n.notable_id)).map((n) => Number(n.id))));
    t.true(ada.ids.length > 0);
  });

  test.serial(`${db.name}: guarded relationships and attributes answer like an unknown filter`, async (t) => {
    const refused = (params: QueryParams, resource: 'EmployeeResource' | 'PositionResource' = 'EmployeeResource') =>
      t.throwsAsync(() => read(params, resource), { instanceOf: InvalidQueryError });
    const notes = await refused({ filter: { has: { 'notes.body': 'x' } } });
    const missing = await refused({ filter: { has: { 'nothing.body': 'x' } } });
    t.is(notes!.code, missing!.code);
    t.is(notes!.message.replace('notes', 'nothing'), missing!.message);
    t.is(notes!.parameter, 'filter[has][notes.body]');
    const salary = await refused({ filter: { has: { 'employee.salary': { gt: '1' } } } }, 'PositionResource');
    // a name no "did you mean" hint is near, as none is near salary for a reader who may not see it
    const unknown = await refused({ filter: { has: { 'employee.stipend': { gt: '1' } } } }, 'PositionResource');
    t.is(salary!.code, 'unknown_filter');
    t.is(salary!.message, unknown!.message.replace('stipend', 'salary'));
    const typo = await refused({ filter: { has: { 'employee.salery': { gt: '1' } } } }, 'PositionResource');
    t.notRegex(typo!.message, /"salary"/, 'a hint never names what the reader may not see');
    t.is(salary!.parameter, 'filter[has][employee.salary]');
    const admitted = await withContext({ role: 'admin' }, () => read({ filter: { has: { 'employee.salary': { gt: '1' } } } }, 'PositionResource'));
    t.is(admitted.ids.length, positions.length);
  });

  test.serial(`${db.name}: bad related filters are 400s naming their parameter`, async (t) => {
    const bad = async (filter: Record<string, unknown>, code: string, parameter: string) => {
      const error = await t.throwsAsync(() => read({ filter }), { instanceOf: BadRequestError });
      t.is(error!.code, code);
      t.is(error!.parameter, parameter);
    };
    await bad({ has: 'x' }, 'invalid_parameter', 'filter[has]');
    await bad({ has: { positions: 'x' } }, 'invalid_parameter', 'filter[has][positions]');
    await bad({ has: { 'positions.salary': 'x' } }, 'unknown_filter', 'filter[has][positions.salary]');
    await bad({ has: { 'positions.rank': { near: '3' } } }, 'unknown_operator', 'filter[has][positions.rank][near]');
    await bad({ has_no: { 'positions.rank': 'high' } }, 'type_error', 'filter[has_no][positions.rank]');
  });

  test.serial(`${db.name}: sort by a to-one related attribute, missing ones last ascending and first descending, id breaking ties`, async (t) => {
    const name = (p: Row) => (p.department_id === null ? null : departmentName(p.department_id));
    const expected = (direction: 1 | -1) =>
      [...positions].sort((a, b) => {
        const [x, y] = [name(a), name(b)];
        if (x === y) return Number(a.id) - Number(b.id);
        if (x === null) return direction;
        if (y === null) return -direction;
        return (x < y ? -1 : 1) * direction;
      }).map((p) => Number(p.id));
    const ascending = await read({ sort: 'department.name' }, 'PositionResource');
    t.deepEqual(ascending.ids, expected(1));
    t.is(ascending.queries.length, 1);
    const descending = await read({ sort: '-department.name' }, 'PositionResource');
    t.deepEqual(descending.ids, expected(-1));
    const polymorphic = await t.throwsAsync(() => withContext({ role: 'admin' }, () => read({ sort: 'notable.name' }, 'NoteResource')), { instanceOf: InvalidQueryError });
    t.is(polymorphic!.code, 'unknown_sort', 'only belongs_to and has_one lead a related sort');
    const guarded = await t.throwsAsync(() => read({ sort: 'employee.salary' }, 'PositionResource'), { instanceOf: InvalidQueryError });
    t.is(guarded!.code, 'unknown_sort');
  });

  test.serial(`${db.name}: a has_one sorts and filters by the record include loads, its params block applied`, async (t) => {
    const current = new Map(positions.filter((p) => Boolean(p.active)).map((p) => [Number(p.employee_id), String(p.title)]));
    const { ids: found } = await read({ sort: 'current_position.title' });
    const expected = employees.map((e) => Number(e.id)).sort((a, b) => {
      const [x, y] = [current.get(a), current.get(b)];
      if (x === y) return a - b;
      if (x === undefined) return 1;
      if (y === undefined) return -1;
      return x < y ? -1 : 1;
    });
    t.deepEqual(found, expected);
    const title = String(positions.find((p) => !p.active)!.title);
    const filtered = await read({ filter: { has: { 'current_position.title': title } } });
    t.deepEqual(filtered.ids, sorted([...current].filter(([, v]) => v === title).map(([k]) => k)));
  });
}
