import test from 'ava';
import type { JsonApiDocument, ResourceObject } from '../../../core/index.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, type Directory } from '../../support/directory.ts';

const data = (doc: JsonApiDocument) => doc.data as ResourceObject[];

/** A polymorphic parent (tasks) serving bugs, features and epics from one table. */
for (const db of testDatabases()) {
  let dir: Directory;
  test.before(async () => {
    dir = await openDirectory(db, 'polymorphic', 60);
  });
  test.after.always(async () => dir?.sequelize.close());

  test.serial(`${db.name}: the parent endpoint returns every child type, each with its own attributes`, async (t) => {
    const { TaskResource } = dir.resources;
    const doc = await TaskResource.all({ page: { size: 100 } }).toJsonapi();
    const rows = await dir.models.Task.findAll({ order: [['id', 'ASC']] });
    t.deepEqual(data(doc).map((d) => [d.id, d.type]), rows.map((r) => [String(r.id), r.type]));
    for (const task of data(doc)) {
      const keys = Object.keys(task.attributes);
      if (task.type === 'bugs') t.deepEqual(keys, ['title', 'severity']);
      if (task.type === 'features') t.deepEqual(keys, ['title', 'points']);
      if (task.type === 'epics') t.deepEqual(keys, ['title']);
    }
    t.deepEqual([...new Set(data(doc).map((d) => d.type))].sort(), ['bugs', 'epics', 'features']);
  });

  test.serial(`${db.name}: only the child that declares a relationship renders it`, async (t) => {
    const { TaskResource } = dir.resources;
    const doc = await TaskResource.all({ page: { size: 30 } }).toJsonapi();
    for (const task of data(doc)) t.is('milestones' in task.relationships!, task.type === 'epics');
  });

  test.serial(`${db.name}: an include declared by one child queries only that child's records`, async (t) => {
    const { TaskResource } = dir.resources;
    dir.resetQueries();
    const doc = await TaskResource.all({ include: 'milestones', page: { size: 30 } }).toJsonapi();
    t.is(dir.queries.length, 2);
    const epicIds = data(doc).filter((d) => d.type === 'epics').map((d) => d.id);
    const milestoneQuery = dir.queries[1]!;
    for (const id of data(doc).filter((d) => d.type !== 'epics').map((d) => d.id)) t.notRegex(milestoneQuery, new RegExp(`[(, ]${id}[,)]`));
    const milestones = await dir.models.Milestone.findAll({ where: { epic_id: epicIds.map(Number) } });
    t.deepEqual(doc.included!.map((m) => m.id).sort(), milestones.map((m) => String(m.id)).sort());
  });

  test.serial(`${db.name}: each child has its own endpoint serving only its records`, async (t) => {
    const { BugResource, EpicResource } = dir.resources;
    const bugs = data(await BugResource.all({ page: { size: 100 } }).toJsonapi());
    t.true(bugs.length > 0);
    t.true(bugs.every((b) => b.type === 'bugs'));
    t.is(bugs.length, await dir.models.Task.count({ where: { type: 'bugs' } }));
    const epic = await dir.models.Task.findOne({ where: { type: 'epics' } });
    await t.notThrowsAsync(EpicResource.find({ id: epic!.id }).data);
    t.like(await t.throwsAsync(BugResource.find({ id: epic!.id }).data), { status: 404 });
  });

  test.serial(`${db.name}: a has_many to a polymorphic Resource types each included record`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const doc = await EmployeeResource.all({ include: 'tasks.milestones', filter: { id: '1,2,3,5,6,7' } }).toJsonapi();
    const tasks = await dir.models.Task.findAll({ where: { employee_id: [1, 2, 3, 5, 6, 7] } });
    const included = doc.included!.filter((i) => i.type !== 'milestones');
    t.deepEqual(included.map((i) => `${i.type}:${i.id}`).sort(), tasks.map((x) => `${x.type}:${x.id}`).sort());
    const employee = data(doc).find((e) => e.id === String(tasks[0]!.employee_id))!;
    t.deepEqual((employee.relationships!.tasks as { data: unknown[] }).data[0], { type: tasks[0]!.type, id: String(tasks[0]!.id) });
  });
}
