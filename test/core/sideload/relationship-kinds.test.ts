import test from 'ava';
import { Op } from 'sequelize';
import { withContext, type JsonApiDocument, type ResourceObject } from '../../../core/index.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, type Directory } from '../../support/directory.ts';

type Linkage = { type: string; id: string };
const ids = (list: Array<{ id: unknown }>) => list.map((r) => String(r.id));
const data = (doc: JsonApiDocument) => doc.data as ResourceObject[];
const linkage = (object: ResourceObject, name: string) => (object.relationships![name] as { data: Linkage[] | Linkage | null }).data;

/** Every relationship kind, checked against the database itself. */
for (const db of testDatabases()) {
  let dir: Directory;
  test.before(async () => {
    dir = await openDirectory(db, 'relationship_kinds');
    // the links these tests read are the default, filter-style ones; the example itself links to its relationship endpoints
    for (const resource of Object.values(dir.resources)) resource.relationshipLinks = 'filters';
  });
  test.after.always(async () => dir?.sequelize.close());

  test.serial(`${db.name}: has_many links each employee to its positions, in one more query`, async (t) => {
    const { EmployeeResource } = dir.resources;
    dir.resetQueries();
    const doc = await EmployeeResource.all({ include: 'positions', page: { size: 10 } }).toJsonapi();
    t.is(dir.queries.length, 2);
    const employees = data(doc);
    const positions = await dir.models.Position.findAll({ where: { employee_id: employees.map((e) => Number(e.id)) }, order: [['id', 'ASC']] });
    for (const employee of employees) {
      const expected = positions.filter((p) => String(p.employee_id) === employee.id).map((p) => ({ type: 'positions', id: String(p.id) }));
      t.deepEqual(linkage(employee, 'positions'), expected);
    }
    t.deepEqual(ids(doc.included!).sort(), ids(positions).sort());
    t.true(doc.included!.every((p) => p.type === 'positions'));
  });

  test.serial(`${db.name}: belongs_to follows the foreign key, null when there is none`, async (t) => {
    const { PositionResource } = dir.resources;
    const positions = await dir.models.Position.findAll({ where: { department_id: null }, limit: 2 });
    const doc = await PositionResource.all({ filter: { id: ids(positions).join(',') + ',1,2' }, include: 'department,employee' }).toJsonapi();
    for (const position of data(doc)) {
      const row = (await dir.models.Position.findByPk(Number(position.id)))!;
      t.deepEqual(linkage(position, 'department'), row.department_id === null ? null : { type: 'departments', id: String(row.department_id) });
      t.deepEqual(linkage(position, 'employee'), { type: 'employees', id: String(row.employee_id) });
    }
    t.true(data(doc).some((p) => linkage(p, 'department') === null));
  });

  test.serial(`${db.name}: has_one assigns the single matching record (the active position)`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const doc = await EmployeeResource.all({ include: 'current_position', filter: { id: '1,11,22,33' } }).toJsonapi();
    for (const employee of data(doc)) {
      const active = await dir.models.Position.findOne({ where: { employee_id: Number(employee.id), active: true } });
      t.deepEqual(linkage(employee, 'current_position'), active ? { type: 'positions', id: String(active.id) } : null);
    }
    t.true(data(doc).some((e) => linkage(e, 'current_position') === null), 'employee 11 has no active position');
  });

  test.serial(`${db.name}: many_to_many goes through the join table, one query`, async (t) => {
    const { EmployeeResource, TeamResource } = dir.resources;
    dir.resetQueries();
    const doc = await EmployeeResource.all({ include: 'teams', page: { size: 12 } }).toJsonapi();
    t.is(dir.queries.length, 2);
    const rows = await dir.models.EmployeeTeam.findAll({ where: { employee_id: data(doc).map((e) => Number(e.id)) } });
    for (const employee of data(doc)) {
      const expected = rows.filter((r) => String(r.employee_id) === employee.id).map((r) => String(r.team_id)).sort();
      t.deepEqual((linkage(employee, 'teams') as Linkage[]).map((l) => l.id).sort(), expected);
    }
    const viaFilter = (await TeamResource.all({ filter: { employee_id: 3 } }).data) as Array<{ id: number }>;
    const expected = rows.length > 0 ? (await dir.models.EmployeeTeam.findAll({ where: { employee_id: 3 } })).map((r) => String(r.team_id)).sort() : [];
    t.deepEqual(ids(viaFilter).sort(), expected, 'the inverse filter the relationship adds');
  });

  test.serial(`${db.name}: many_to_many works from the other side too`, async (t) => {
    const { TeamResource } = dir.resources;
    const doc = await TeamResource.find({ id: 1, include: 'employees' }).toJsonapi();
    const members = await dir.models.EmployeeTeam.findAll({ where: { team_id: 1 } });
    t.deepEqual((linkage(doc.data as ResourceObject, 'employees') as Linkage[]).map((l) => l.id).sort(), members.map((m) => String(m.employee_id)).sort());
  });

  test.serial(`${db.name}: polymorphic_has_many selects by <as>_id and <as>_type`, async (t) => {
    const { EmployeeResource, DepartmentResource } = dir.resources;
    const doc = await withContext({ role: 'admin' }, () => EmployeeResource.all({ include: 'notes', filter: { id: '1,2,3' } }).toJsonapi());
    for (const employee of data(doc)) {
      const notes = await dir.models.Note.findAll({ where: { notable_type: 'employees', notable_id: Number(employee.id) } });
      t.deepEqual((linkage(employee, 'notes') as Linkage[]).map((l) => l.id), ids(notes));
    }
    // department 1 has a note too, but employee 1's notes must not include it
    t.true(doc.included!.every((n) => n.type === 'notes'));
    t.truthy(DepartmentResource);
  });

  test.serial(`${db.name}: polymorphic_belongs_to groups records by type and follows each group`, async (t) => {
    const { NoteResource } = dir.resources;
    const notes = await dir.models.Note.findAll({ where: { [Op.or]: [{ id: [1, 2] }, { notable_type: ['teams', 'departments'] }] } });
    dir.resetQueries();
    const doc = await withContext({ role: 'admin' }, () => NoteResource.all({ filter: { id: ids(notes).join(',') }, include: 'notable', page: { size: 100 } }).toJsonapi());
    t.is(dir.queries.length, 4, 'notes, then one query per notable type');
    for (const note of data(doc)) {
      const row = notes.find((n) => String(n.id) === note.id)!;
      t.deepEqual(linkage(note, 'notable'), { type: row.notable_type, id: String(row.notable_id) });
    }
    t.deepEqual([...new Set(doc.included!.map((i) => i.type))].sort(), ['departments', 'employees', 'teams']);
  });

  test.serial(`${db.name}: nested includes: included is de-duplicated, breadth first`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const doc = await EmployeeResource.all({ include: 'positions.department', page: { size: 30 } }).toJsonapi();
    const types = doc.included!.map((i) => i.type);
    const firstDepartment = types.indexOf('departments');
    t.true(firstDepartment > 0);
    t.true(types.slice(firstDepartment).every((type) => type === 'departments'), 'all positions come before any department');
    const keys = doc.included!.map((i) => `${i.type}:${i.id}`);
    t.is(new Set(keys).size, keys.length);
    t.true(new Set(types.filter((x) => x === 'departments')).size <= 8);
  });

  test.serial(`${db.name}: the number of queries does not grow with the number of parents`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const counts: number[] = [];
    for (const size of [20, 200]) {
      dir.resetQueries();
      await EmployeeResource.all({ include: 'positions.department,teams', page: { size } }).toJsonapi();
      counts.push(dir.queries.length);
    }
    t.deepEqual(counts, [4, 4]);
  });

  test.serial(`${db.name}: a relationship not included says so and links to its records`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const doc = await EmployeeResource.find({ id: 1 }).toJsonapi();
    const relationships = (doc.data as ResourceObject).relationships!;
    t.deepEqual(relationships.positions, { meta: { included: false }, links: { related: '/api/v1/positions?filter[employee_id]=1' } });
    t.deepEqual(relationships.teams, { meta: { included: false }, links: { related: '/api/v1/teams?filter[employee_id]=1' } });
    t.deepEqual(relationships.tasks, { meta: { included: false }, links: { related: '/api/v1/tasks?filter[employee_id]=1' } });
    t.false('notes' in relationships, 'a refused readable guard hides the relationship');
    const admin = await withContext({ role: 'admin' }, () => EmployeeResource.find({ id: 1 }).toJsonapi());
    t.deepEqual((admin.data as ResourceObject).relationships!.notes, {
      meta: { included: false },
      links: { related: '/api/v1/notes?filter[notable_id]=1&filter[notable_type]=employees' },
    });
  });

  test.serial(`${db.name}: belongs_to links filter by id, and vanish when the key is null`, async (t) => {
    const { PositionResource } = dir.resources;
    const orphan = await dir.models.Position.findOne({ where: { department_id: null } });
    const doc = await PositionResource.find({ id: orphan!.id }).toJsonapi();
    const relationships = (doc.data as ResourceObject).relationships!;
    t.deepEqual(relationships.department, { meta: { included: false } });
    t.deepEqual(relationships.employee, { meta: { included: false }, links: { related: `/api/v1/employees?filter[id]=${orphan!.employee_id}` } });
  });

  test.serial(`${db.name}: a refused readable guard drops the include before any query`, async (t) => {
    const { EmployeeResource } = dir.resources;
    dir.resetQueries();
    const doc = await EmployeeResource.find({ id: 1, include: 'notes,positions' }).toJsonapi();
    t.is(dir.queries.length, 2);
    t.true(doc.included!.every((i) => i.type === 'positions'));
  });
}
