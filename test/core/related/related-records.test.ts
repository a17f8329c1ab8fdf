import test, { type ExecutionContext } from 'ava';
import { Op } from 'sequelize';
import {
  Forbidden, InvalidQueryError, RecordNotFound, RelationshipNotFound, withContext, type JsonApiDocument, type ResourceObject, type Resource,
} from '../../../core/index.ts';
import { SequelizeScope } from '../../../plugins/sequelize/index.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, type Directory } from '../../support/directory.ts';

type Linkage = { type: string; id: string };
const ADMIN = { role: 'admin' };
const asAdmin = <T>(fn: () => Promise<T>) => withContext(ADMIN, fn);
const identify = (object: ResourceObject): Linkage => ({ type: object.type, id: object.id });
const list = (doc: JsonApiDocument) => doc.data as ResourceObject[];

/**
 * `find({ id }).related(name, params)`: a relationship's records, exactly as
 * `include` gives them, with every query parameter of the related index.
 */
for (const db of testDatabases()) {
  let dir: Directory;
  test.before(async () => {
    dir = await openDirectory(db, 'related_records', 60);
  });
  test.after.always(async () => dir?.sequelize.close());

  /** What `include` gives for one record: its linkage, and the included resource objects in that order. */
  async function included(resource: typeof Resource, id: number, name: string): Promise<{ linkage: Linkage[] | Linkage | null; objects: ResourceObject[] }> {
    const doc = await resource.find({ id, include: name }).toJsonapi();
    const linkage = ((doc.data as ResourceObject).relationships![name] as { data: Linkage[] | Linkage | null }).data;
    const byKey = new Map((doc.included ?? []).map((o) => [`${o.type}:${o.id}`, o]));
    const objects = [linkage ?? []].flat().map((l) => byKey.get(`${l.type}:${l.id}`)!);
    return { linkage, objects };
  }

  async function sameAsInclude(t: ExecutionContext, resource: typeof Resource, id: number, name: string): Promise<void> {
    const expected = await included(resource, id, name);
    const doc = await resource.find({ id }).related(name).toJsonapi();
    if (Array.isArray(expected.linkage)) {
      t.deepEqual(list(doc), expected.objects, `${resource.type}/${id}/${name}`);
    } else {
      t.deepEqual(doc.data, expected.objects[0] ?? null, `${resource.type}/${id}/${name}`);
    }
  }

  test(`${db.name}: every relationship of an employee gives the resource objects include gives, in its order`, async (t) => {
    const { EmployeeResource } = dir.resources;
    for (const id of [1, 2, 3, 6, 11, 22]) {
      for (const name of ['positions', 'current_position', 'teams', 'notes', 'tasks']) await asAdmin(() => sameAsInclude(t, EmployeeResource, id, name));
    }
  });

  test(`${db.name}: belongs_to, polymorphic belongs_to and the relationships of polymorphic children`, async (t) => {
    const { PositionResource, NoteResource, TaskResource, EpicResource, TeamResource, DepartmentResource } = dir.resources;
    const noDepartment = (await dir.models.Position.findOne({ where: { department_id: null } }))!;
    for (const id of [1, 2, noDepartment.id]) {
      await sameAsInclude(t, PositionResource, id, 'employee');
      await sameAsInclude(t, PositionResource, id, 'department');
    }
    t.deepEqual(await PositionResource.find({ id: noDepartment.id }).related('department').toJsonapi(), { data: null, meta: {} });
    for (const type of ['employees', 'teams', 'departments']) {
      const note = (await dir.models.Note.findOne({ where: { notable_type: type } }))!;
      await asAdmin(() => sameAsInclude(t, NoteResource, note.id, 'notable'));
      const doc = await asAdmin(() => NoteResource.find({ id: note.id }).related('notable').toJsonapi());
      t.deepEqual(identify(doc.data as ResourceObject), { type, id: String(note.notable_id) });
    }
    const epic = (await dir.models.Task.findOne({ where: { type: 'epics' } }))!;
    await sameAsInclude(t, TaskResource, epic.id, 'milestones');
    await sameAsInclude(t, EpicResource, epic.id, 'milestones');
    t.is(list(await TaskResource.find({ id: epic.id }).related('milestones').toJsonapi()).length, 3);
    await sameAsInclude(t, TaskResource, epic.id, 'employee');
    await sameAsInclude(t, TeamResource, 4, 'employees');
    await sameAsInclude(t, DepartmentResource, 2, 'teams');
    await sameAsInclude(t, DepartmentResource, 2, 'positions');
  });

  test(`${db.name}: tasks render as their child types; a record whose child lacks the relationship has none`, async (t) => {
    const { EmployeeResource, TaskResource } = dir.resources;
    const tasks = await dir.models.Task.findAll({ where: { employee_id: { [Op.lte]: 3 } }, order: [['id', 'ASC']] });
    for (const task of tasks) {
      const doc = await EmployeeResource.find({ id: task.employee_id! }).related('tasks').toJsonapi();
      t.deepEqual(list(doc).map(identify), [{ type: task.type, id: String(task.id) }]);
    }
    const bug = (await dir.models.Task.findOne({ where: { type: 'bugs' } }))!;
    await t.throwsAsync(TaskResource.find({ id: bug.id }).related('milestones').data, { instanceOf: RelationshipNotFound, message: 'No relationship "milestones" on tasks' });
  });

  test(`${db.name}: a to-one relationship is one record or null, never a list`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const active = (await dir.models.Position.findOne({ where: { employee_id: 2, active: true } }))!;
    const proxy = EmployeeResource.find({ id: 2 }).related('current_position');
    t.is(((await proxy.data) as { id: number }).id, active.id);
    t.deepEqual(identify((await proxy.toJsonapi()).data as ResourceObject), { type: 'positions', id: String(active.id) });
    const none = EmployeeResource.find({ id: 11 }).related('current_position');
    t.is(await none.data, null);
    t.deepEqual(await none.toJsonapi(), { data: null, meta: {} });
    t.deepEqual(await none.toLinkage(), { data: null, meta: {}, links: { self: '/api/v1/employees/11/relationships/current_position', related: '/api/v1/employees/11/current_position' } });
  });

  test(`${db.name}: the params block narrows what the client's own filter cannot widen, as under include`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const inactive = EmployeeResource.find({ id: 2 }).related('current_position', { filter: { active: 'false' } });
    const viaInclude = await EmployeeResource.find({ id: 2, include: 'current_position', filter: { 'current_position.active': 'false' } }).toJsonapi();
    const linkage = ((viaInclude.data as ResourceObject).relationships!.current_position as { data: Linkage | null }).data;
    t.deepEqual(identify((await inactive.toJsonapi()).data as ResourceObject), linkage);
    t.true(((await inactive.data) as { active: boolean }).active);
  });

  test(`${db.name}: filter, sort, page, include, fields, extra_fields and stats on a to-many relationship`, async (t) => {
    const { TeamResource } = dir.resources;
    const members = await dir.models.EmployeeTeam.findAll({ where: { team_id: 4 } });
    const employees = await dir.models.Employee.findAll({ where: { id: members.map((m) => m.employee_id) }, order: [['age', 'DESC'], ['id', 'ASC']] });
    t.true(employees.length >= 3, 'team 4 has members enough to page');
    const params = {
      filter: { age: { gte: '0' } }, sort: '-age', page: { size: 2, number: 2 }, include: 'positions',
      fields: { employees: 'first_name', positions: 'title' }, extra_fields: { employees: 'vacation_days' }, stats: { total: 'count', age: 'maximum' },
    };
    const doc = await TeamResource.find({ id: 4 }).related('employees', params).toJsonapi();
    const aged = employees.filter((e) => e.age !== null);
    t.deepEqual(list(doc).map((e) => e.id), aged.slice(2, 4).map((e) => String(e.id)));
    t.deepEqual(Object.keys(list(doc)[0]!.attributes), ['first_name', 'vacation_days']);
    t.deepEqual(doc.meta, { stats: { total: { count: aged.length }, age: { maximum: Math.max(...aged.map((e) => e.age!)) } } });
    const positions = await dir.models.Position.findAll({ where: { employee_id: aged.slice(2, 4).map((e) => e.id) } });
    t.deepEqual(doc.included!.map((p) => p.id).sort(), positions.map((p) => String(p.id)).sort());
    t.deepEqual(Object.keys(doc.included![0]!.attributes), ['title']);
  });

  test(`${db.name}: page[size] and page[number] do not apply to a to-one relationship`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const error = await t.throwsAsync(EmployeeResource.find({ id: 1 }).related('current_position', { page: { number: 2 } }).data, { instanceOf: InvalidQueryError });
    t.is(error.parameter, 'page[number]');
  });

  test.serial(`${db.name}: queries: the parent, the records, a count only for a full page, one per include`, async (t) => {
    const { EmployeeResource, PositionResource, DepartmentResource } = dir.resources;
    const count = async (read: () => Promise<unknown>) => {
      dir.resetQueries();
      await read();
      return dir.queries.length;
    };
    t.is(await count(() => EmployeeResource.find({ id: 1 }).related('positions').toJsonapi()), 2);
    t.is(await count(() => EmployeeResource.find({ id: 1 }).related('positions', { include: 'department' }).toJsonapi()), 3);
    t.is(await count(() => DepartmentResource.find({ id: 1 }).related('positions', { page: { size: 2 } }).toJsonapi()), 2, 'no request, no pagination links: no count');
    t.is(await count(() => EmployeeResource.find({ id: 1 }).related('current_position').toJsonapi()), 2);
    const noDepartment = (await dir.models.Position.findOne({ where: { department_id: null } }))!;
    t.is(await count(() => PositionResource.find({ id: noDepartment.id }).related('department').toJsonapi()), 1, 'a null key: the parent alone');
    const request = { path: '/api/v1/departments/1/positions', query: 'page[size]=2', action: 'show' as const };
    dir.resetQueries();
    const paged = await DepartmentResource.find({ id: 1 }).related('positions', { page: { size: 2 } }, { request }).toJsonapi();
    t.is(dir.queries.length, 3, 'a full page with links: and its count');
    t.is(paged.links!.first, '/api/v1/departments/1/positions?page[number]=1&page[size]=2');
  });

  test.serial(`${db.name}: guards: an unreadable relationship is the same 404 as an unknown one, before any query`, async (t) => {
    const { EmployeeResource, NoteResource } = dir.resources;
    dir.resetQueries();
    const guarded = await t.throwsAsync(EmployeeResource.find({ id: 1 }).related('notes').toJsonapi(), { instanceOf: RelationshipNotFound });
    const unknown = await t.throwsAsync(EmployeeResource.find({ id: 1 }).related('nodes').toJsonapi(), { instanceOf: RelationshipNotFound });
    t.deepEqual(dir.queries, []);
    t.deepEqual(guarded.toJsonapiErrors(), [{ ...unknown.toJsonapiErrors()[0]!, detail: 'No relationship "notes" on employees' }]);
    t.true(list(await asAdmin(() => EmployeeResource.find({ id: 1 }).related('notes').toJsonapi())).length > 0);
    // the parent's own guard answers as its endpoint does
    dir.resetQueries();
    await t.throwsAsync(NoteResource.find({ id: 1 }).related('notable').data, { instanceOf: Forbidden });
    t.deepEqual(dir.queries, []);
  });

  test(`${db.name}: a missing parent is a RecordNotFound; toLinkage refuses what identifiers cannot carry`, async (t) => {
    const { EmployeeResource } = dir.resources;
    await t.throwsAsync(EmployeeResource.find({ id: 9999 }).related('positions').data, { instanceOf: RecordNotFound });
    // find's own base scope finds the record, as for find itself
    const nobody = SequelizeScope.of(dir.models.Employee).where({ first_name: 'Nobody' });
    await t.throwsAsync(EmployeeResource.find({ id: 1 }, nobody).related('positions').data, { instanceOf: RecordNotFound });
    t.true(list(await EmployeeResource.find({ id: 1 }, SequelizeScope.of(dir.models.Employee)).related('positions').toJsonapi()).length > 0);
    for (const [params, parameter] of [[{ include: 'department' }, 'include'], [{ fields: { positions: 'title' } }, 'fields[positions]']] as const) {
      const error = await t.throwsAsync(EmployeeResource.find({ id: 1 }).related('positions', params).toLinkage(), { instanceOf: InvalidQueryError });
      t.is(error.parameter, parameter);
    }
    const linkage = await EmployeeResource.find({ id: 1 }).related('positions', { sort: '-id', page: { size: 1 } }).toLinkage();
    const last = (await dir.models.Position.findOne({ where: { employee_id: 1 }, order: [['id', 'DESC']] }))!;
    t.deepEqual(linkage, { data: [{ type: 'positions', id: String(last.id) }], meta: {}, links: { self: '/api/v1/employees/1/relationships/positions', related: '/api/v1/employees/1/positions' } });
    t.throws(() => EmployeeResource.all().related('positions'), { message: 'related() need a proxy from find({ id })' });
  });
}
