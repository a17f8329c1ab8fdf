import test from 'ava';
import spraypaint from 'spraypaint';
import { testDatabases } from '../support/databases.ts';
import { openDirectory, tableCounts, type Directory } from '../support/directory.ts';
import { serve, type HttpClient } from '../support/http.ts';

const { SpraypaintBase, attr, hasMany, belongsTo } = spraypaint;

/**
 * The example API driven by spraypaint, the JSON:API client of this framework
 * family, exactly as a front end would use it.
 */
function defineModels(baseUrl: string) {
  const Base = SpraypaintBase.extend({ static: { baseUrl, apiNamespace: '/api/v1' } });
  const Department = Base.extend({ static: { jsonapiType: 'departments' }, attrs: { name: attr() } });
  const Position = Base.extend({
    static: { jsonapiType: 'positions' },
    attrs: { title: attr(), active: attr(), rank: attr(), department: belongsTo('departments'), employee: belongsTo('employees') },
  });
  const Team = Base.extend({ static: { jsonapiType: 'teams' }, attrs: { name: attr() } });
  const Employee = Base.extend({
    static: { jsonapiType: 'employees' },
    attrs: {
      firstName: attr(), lastName: attr(), age: attr(), vacationDays: attr({ persist: false }),
      positions: hasMany('positions'), teams: hasMany('teams'),
    },
  });
  return { Employee, Position, Department, Team };
}

type AnyRecord = Record<string, unknown> & { id?: string; save(options?: unknown): Promise<boolean>; errors: Record<string, { message: string; fullMessage: string } | undefined>; isMarkedForDestruction: boolean; isMarkedForDisassociation: boolean; isPersisted: boolean };

for (const db of testDatabases()) {
  let dir: Directory;
  let client: HttpClient;
  let models: ReturnType<typeof defineModels>;
  test.before(async () => {
    dir = await openDirectory(db, 'spraypaint', 60);
    client = await serve(dir.app);
    models = defineModels(client.baseUrl);
  });
  test.after.always(async () => {
    await client?.close();
    await dir?.sequelize.close();
  });

  test.serial(`${db.name}: where, order, page and per`, async (t) => {
    const data = (await models.Employee.where({ age: { gte: 40 } }).order({ age: 'desc' }).page(2).per(3).all()).data as unknown as AnyRecord[];
    const expected = await dir.models.Employee.findAll({ where: { age: { [(await import('sequelize')).Op.gte]: 40 } }, order: [['age', 'DESC'], ['id', 'ASC']], offset: 3, limit: 3 });
    t.deepEqual(data.map((e) => e.id), expected.map((e) => String(e.id)));
    t.true(data.every((e) => (e.age as number) >= 40));
  });

  test.serial(`${db.name}: includes, select, selectExtra and stats`, async (t) => {
    const result = await models.Employee.includes({ positions: 'department' })
      .select({ employees: ['first_name'], positions: ['title', 'department'] })
      .selectExtra({ employees: ['vacation_days'] })
      .stats({ total: 'count' })
      .per(5)
      .all();
    const data = result.data as unknown as AnyRecord[];
    const meta = result.meta;
    t.is(data.length, 5);
    t.deepEqual(meta, { stats: { total: { count: 60 } } });
    const first = data[0]!;
    t.is(typeof first.firstName, 'string');
    t.is(first.age, undefined, 'select left age out');
    t.is(typeof first.vacationDays, 'number');
    const positions = first.positions as AnyRecord[];
    const expected = await dir.models.Position.count({ where: { employee_id: Number(first.id) } });
    t.is(positions.length, expected);
    t.true(positions.every((p) => typeof p.title === 'string'));
  });

  test.serial(`${db.name}: find and a 404`, async (t) => {
    const { data } = await models.Employee.find(1);
    t.is((data as unknown as AnyRecord).firstName, 'Ada');
    await t.throwsAsync(models.Employee.find(9999));
  });

  test.serial(`${db.name}: save({ with }) creates a graph with temp-ids and maps the new ids back`, async (t) => {
    const department = new models.Department({ name: 'Skunkworks' }) as unknown as AnyRecord;
    const position = new models.Position({ title: 'Inventor', active: true, department }) as unknown as AnyRecord;
    const employee = new models.Employee({ firstName: 'Hedy', lastName: 'Lamarr', age: 40, positions: [position] }) as unknown as AnyRecord;
    t.true(await employee.save({ with: { positions: 'department' } }));
    t.truthy(employee.id);
    t.truthy(position.id);
    t.truthy(department.id);
    t.true(position.isPersisted);
    const row = (await dir.models.Position.findByPk(Number(position.id)))!;
    t.is(String(row.employee_id), String(employee.id));
    t.is(String(row.department_id), String(department.id));
  });

  test.serial(`${db.name}: updates, isMarkedForDestruction and isMarkedForDisassociation`, async (t) => {
    const created = await dir.models.Employee.create({ first_name: 'Barbara', last_name: 'Liskov' });
    const [keep, drop, detach] = await dir.models.Position.bulkCreate([
      { title: 'Professor', employee_id: created.id },
      { title: 'Old job', employee_id: created.id },
      { title: 'Side job', employee_id: created.id },
    ]);
    const { data } = await models.Employee.includes('positions').find(created.id);
    const employee = data as unknown as AnyRecord;
    employee.age = 84;
    const positions = employee.positions as AnyRecord[];
    positions.find((p) => p.id === String(keep!.id))!.title = 'Institute Professor';
    positions.find((p) => p.id === String(drop!.id))!.isMarkedForDestruction = true;
    positions.find((p) => p.id === String(detach!.id))!.isMarkedForDisassociation = true;
    t.true(await employee.save({ with: 'positions' }));
    t.is((await dir.models.Employee.findByPk(created.id))!.age, 84);
    t.is((await dir.models.Position.findByPk(keep!.id))!.title, 'Institute Professor');
    t.is(await dir.models.Position.findByPk(drop!.id), null);
    t.is((await dir.models.Position.findByPk(detach!.id))!.employee_id, null);
    t.deepEqual((employee.positions as AnyRecord[]).map((p) => p.id), [String(keep!.id)]);
  });

  test.serial(`${db.name}: a 422 fills the client's errors and writes nothing`, async (t) => {
    const before = await tableCounts(dir.models);
    const position = new models.Position({ title: '' }) as unknown as AnyRecord;
    const employee = new models.Employee({ firstName: '', lastName: 'Nobody', positions: [position] }) as unknown as AnyRecord;
    t.false(await employee.save({ with: 'positions' }));
    t.is(employee.errors.firstName?.message, "can't be blank");
    t.is(employee.errors.firstName?.fullMessage, "First name can't be blank");
    t.is(position.errors.title?.message, "can't be blank");
    t.deepEqual(await tableCounts(dir.models), before);
  });
}
