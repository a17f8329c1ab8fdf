import test from 'ava';
import { withContext, type ResourceObject } from '../../../core/index.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, tableCounts, type Directory } from '../../support/directory.ts';

type Linkage = { type: string; id: string };

/** Writing whole graphs: every method, every relationship kind, one transaction. */
for (const db of testDatabases()) {
  let dir: Directory;
  test.before(async () => {
    dir = await openDirectory(db, 'sideposting', 30);
  });
  test.after.always(async () => dir?.sequelize.close());

  test.serial(`${db.name}: create a record alone, with or without the data wrapper`, async (t) => {
    const { DepartmentResource } = dir.resources;
    const wrapped = DepartmentResource.build({ data: { type: 'departments', attributes: { name: 'Legal' } } });
    t.true(await wrapped.save());
    const bare = DepartmentResource.build({ type: 'departments', attributes: { name: 'Security' } });
    t.true(await bare.save());
    const names = (await dir.models.Department.findAll({ order: [['id', 'DESC']], limit: 2 })).map((d) => d.name);
    t.deepEqual(names, ['Security', 'Legal']);
    const doc = await wrapped.toJsonapi();
    t.like(doc.data, { type: 'departments', attributes: { name: 'Legal' } });
    t.regex((doc.data as ResourceObject).id, /^\d+$/);
  });

  test.serial(`${db.name}: a graph of new records: belongs_to parents first, children after, temp-ids echoed`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const write = EmployeeResource.build({
      data: {
        type: 'employees',
        attributes: { first_name: 'Grace', last_name: 'Hopper', age: 85 },
        relationships: {
          positions: { data: [{ type: 'positions', 'temp-id': 'p-1', method: 'create' }, { type: 'positions', 'temp-id': 'p-2' }] },
          teams: { data: [{ type: 'teams', 'temp-id': 't-1', method: 'create' }, { type: 'teams', id: '2' }] },
        },
      },
      included: [
        { type: 'positions', 'temp-id': 'p-1', attributes: { title: 'Rear Admiral', active: true }, relationships: { department: { data: { type: 'departments', 'temp-id': 'd-1', method: 'create' } } } },
        { type: 'positions', 'temp-id': 'p-2', attributes: { title: 'Programmer' } },
        { type: 'departments', 'temp-id': 'd-1', attributes: { name: 'Navy' } },
        { type: 'teams', 'temp-id': 't-1', attributes: { name: 'COBOL' } },
      ],
    });
    t.true(await write.save(), JSON.stringify(write.errors));
    const doc = await write.toJsonapi();
    const employee = doc.data as ResourceObject;
    const byTempId = new Map(doc.included!.filter((i) => i['temp-id']).map((i) => [i['temp-id'], i]));
    t.deepEqual([...byTempId.keys()].sort(), ['d-1', 'p-1', 'p-2', 't-1']);
    const p1 = (await dir.models.Position.findByPk(Number(byTempId.get('p-1')!.id)))!;
    t.is(String(p1.employee_id), employee.id);
    t.is(String(p1.department_id), byTempId.get('d-1')!.id);
    t.is((await dir.models.Department.findByPk(p1.department_id!))!.name, 'Navy');
    const teams = (await dir.models.EmployeeTeam.findAll({ where: { employee_id: Number(employee.id) } })).map((r) => String(r.team_id)).sort();
    t.deepEqual(teams, [byTempId.get('t-1')!.id, '2'].sort());
    t.deepEqual((employee.relationships!.positions as { data: Linkage[] }).data.map((l) => l.id).sort(), [byTempId.get('p-1')!.id, byTempId.get('p-2')!.id].sort());
    t.truthy(doc.included!.find((i) => i.type === 'teams' && i.id === '2'), 'a linked existing record is in the response too');
  });

  test.serial(`${db.name}: update, destroy and disassociate related records in one request`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const employee = await dir.models.Employee.create({ first_name: 'Alan', last_name: 'Turing' });
    const [keep, drop, detach] = await dir.models.Position.bulkCreate([
      { title: 'Cryptanalyst', employee_id: employee.id },
      { title: 'Runner', employee_id: employee.id },
      { title: 'Reader', employee_id: employee.id },
    ]);
    await dir.models.EmployeeTeam.bulkCreate([{ employee_id: employee.id, team_id: 1 }, { employee_id: employee.id, team_id: 3 }]);
    const ok = await EmployeeResource.find({ id: employee.id }).update({
      data: {
        type: 'employees',
        id: String(employee.id),
        attributes: { age: 41 },
        relationships: {
          positions: {
            data: [
              { type: 'positions', id: String(keep!.id), method: 'update' },
              { type: 'positions', id: String(drop!.id), method: 'destroy' },
              { type: 'positions', id: String(detach!.id), method: 'disassociate' },
            ],
          },
          teams: { data: [{ type: 'teams', id: '1', method: 'disassociate' }, { type: 'teams', id: '3', method: 'destroy' }] },
        },
      },
      included: [{ type: 'positions', id: String(keep!.id), attributes: { title: 'Mathematician' } }],
    });
    t.true(ok);
    t.is((await dir.models.Employee.findByPk(employee.id))!.age, 41);
    t.is((await dir.models.Position.findByPk(keep!.id))!.title, 'Mathematician');
    t.is(await dir.models.Position.findByPk(drop!.id), null);
    t.is((await dir.models.Position.findByPk(detach!.id))!.employee_id, null);
    t.is(await dir.models.EmployeeTeam.count({ where: { employee_id: employee.id } }), 0);
    t.is(await dir.models.Team.findByPk(3), null, 'destroy deletes the related record');
    t.truthy(await dir.models.Team.findByPk(1), 'disassociate deletes nothing else');
  });

  test.serial(`${db.name}: the response leaves out destroyed and disassociated records`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const employee = await dir.models.Employee.create({ first_name: 'Edsger', last_name: 'Dijkstra' });
    const [a, b] = await dir.models.Position.bulkCreate([{ title: 'Professor', employee_id: employee.id }, { title: 'Gone', employee_id: employee.id }]);
    const proxy = EmployeeResource.find({ id: employee.id });
    t.true(await proxy.update({
      data: {
        type: 'employees', id: String(employee.id),
        relationships: { positions: { data: [{ type: 'positions', id: String(a!.id) }, { type: 'positions', id: String(b!.id), method: 'destroy' }] } },
      },
    }));
    const doc = await proxy.toWrittenJsonapi();
    t.deepEqual(doc.included!.map((i) => i.id), [String(a!.id)]);
  });

  test.serial(`${db.name}: include= on a write sideloads more`, async (t) => {
    const { PositionResource } = dir.resources;
    const write = PositionResource.build(
      { data: { type: 'positions', attributes: { title: 'Scribe' }, relationships: { employee: { data: { type: 'employees', id: '1' } } } } },
      { include: 'employee.teams' },
    );
    t.true(await write.save());
    const doc = await write.toJsonapi();
    t.truthy(doc.included!.find((i) => i.type === 'employees' && i.id === '1'));
    t.true(doc.included!.some((i) => i.type === 'teams'));
  });

  test.serial(`${db.name}: polymorphic writes: a child type at the parent endpoint, notes on any notable`, async (t) => {
    const { TaskResource, NoteResource, EmployeeResource } = dir.resources;
    const bug = TaskResource.build({ data: { type: 'bugs', attributes: { title: 'Moth in relay', severity: 5 }, relationships: { employee: { data: { type: 'employees', id: '1' } } } } });
    t.true(await bug.save(), JSON.stringify(bug.errors));
    const saved = (await dir.models.Task.findByPk((bug.data as { id: number }).id))!;
    t.like(saved.get({ plain: true }), { type: 'bugs', severity: 5, employee_id: 1 });
    t.is(((await bug.toJsonapi()).data as ResourceObject).type, 'bugs');

    const note = withContext({ role: 'admin' }, () =>
      NoteResource.build({ data: { type: 'notes', attributes: { body: 'Great team' }, relationships: { notable: { data: { type: 'teams', id: '2' } } } } }));
    t.true(await note.save(), JSON.stringify(note.errors));
    t.like((await dir.models.Note.findByPk((note.data as { id: number }).id))!.get({ plain: true }), { notable_type: 'teams', notable_id: 2 });

    const admin = await withContext({ role: 'admin' }, async () => {
      const write = EmployeeResource.build({
        data: { type: 'employees', attributes: { first_name: 'Kay', last_name: 'Mcnulty' }, relationships: { notes: { data: [{ type: 'notes', 'temp-id': 'n1' }] } } },
        included: [{ type: 'notes', 'temp-id': 'n1', attributes: { body: 'Computed trajectories' } }],
      });
      return { saved: await write.save(), write };
    });
    t.true(admin.saved, JSON.stringify(admin.write.errors));
    const id = (admin.write.data as { id: number }).id;
    t.like((await dir.models.Note.findOne({ where: { notable_id: id, notable_type: 'employees' } }))?.get({ plain: true }), { body: 'Computed trajectories' });
  });

  test.serial(`${db.name}: clearing a to-one relationship with data: null`, async (t) => {
    const { PositionResource } = dir.resources;
    const position = await dir.models.Position.create({ title: 'Temp', employee_id: 1, department_id: 2 });
    t.true(await PositionResource.find({ id: position.id }).update({ data: { type: 'positions', id: String(position.id), relationships: { department: { data: null } } } }));
    t.is((await dir.models.Position.findByPk(position.id))!.department_id, null);
  });

  test.serial(`${db.name}: destroy removes the record`, async (t) => {
    const { DepartmentResource } = dir.resources;
    const department = await dir.models.Department.create({ name: 'Ephemeral' });
    t.true(await DepartmentResource.find({ id: department.id }).destroy());
    t.is(await dir.models.Department.findByPk(department.id), null);
    await t.throwsAsync(DepartmentResource.find({ id: department.id }).destroy(), { message: /No departments record/ });
  });

  test.serial(`${db.name}: one invalid record anywhere rolls the whole graph back and lists every error`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const before = await tableCounts(dir.models);
    const write = EmployeeResource.build({
      data: {
        type: 'employees',
        attributes: { first_name: 'Valid', last_name: 'Person' },
        relationships: {
          positions: { data: [{ type: 'positions', 'temp-id': 'ok' }, { type: 'positions', 'temp-id': 'bad' }] },
          teams: { data: [{ type: 'teams', 'temp-id': 'team' }] },
        },
      },
      included: [
        { type: 'positions', 'temp-id': 'ok', attributes: { title: 'Fine' } },
        { type: 'positions', 'temp-id': 'bad', attributes: { title: '' } },
        { type: 'teams', 'temp-id': 'team', attributes: { name: '' } },
      ],
    });
    t.false(await write.save());
    t.deepEqual(await tableCounts(dir.models), before);
    t.deepEqual(write.errors, [
      {
        code: 'unprocessable_entity', status: '422', title: 'Validation Error', detail: "Title can't be blank",
        source: { pointer: '/included/1/attributes/title' },
        meta: { relationship: { attribute: 'title', message: "can't be blank", code: 'blank', name: 'positions', type: 'positions', 'temp-id': 'bad' } },
      },
      {
        code: 'unprocessable_entity', status: '422', title: 'Validation Error', detail: "Name can't be blank",
        source: { pointer: '/included/2/attributes/name' },
        meta: { relationship: { attribute: 'name', message: "can't be blank", code: 'blank', name: 'teams', type: 'teams', 'temp-id': 'team' } },
      },
    ]);
  });

  test.serial(`${db.name}: an invalid parent is reported with its children's errors, nothing saved`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const before = await tableCounts(dir.models);
    const write = EmployeeResource.build({
      data: { type: 'employees', attributes: { first_name: '', last_name: '' }, relationships: { positions: { data: [{ type: 'positions', 'temp-id': 'x' }] } } },
      included: [{ type: 'positions', 'temp-id': 'x', attributes: { title: '' } }],
    });
    t.false(await write.save());
    t.deepEqual(write.errors.map((e) => e.source?.pointer), ['/data/attributes/first_name', '/data/attributes/last_name', '/included/0/attributes/title']);
    t.deepEqual(write.errors[0]!.meta, { attribute: 'first_name', message: "can't be blank", code: 'blank' });
    t.deepEqual(await tableCounts(dir.models), before);
  });

  test.serial(`${db.name}: an existing record's errors carry its id`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const write = EmployeeResource.find({ id: 1 });
    const position = await dir.models.Position.findOne({ where: { employee_id: 1 } });
    t.false(await write.update({
      data: { type: 'employees', id: '1', relationships: { positions: { data: [{ type: 'positions', id: String(position!.id) }] } } },
      included: [{ type: 'positions', id: String(position!.id), attributes: { title: '' } }],
    }));
    t.like(write.errors[0]!.meta, { relationship: { name: 'positions', type: 'positions', id: String(position!.id), code: 'blank' } });
  });
}
