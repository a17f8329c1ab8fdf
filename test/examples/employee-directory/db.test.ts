import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { QueryTypes, ValidationError, type Model, type ModelStatic, type Sequelize } from 'sequelize';
import { connect } from '../../../examples/employee-directory/db/connection.ts';
import { defineModels, type Models } from '../../../examples/employee-directory/db/models/index.ts';
import { resetDatabase, seed, seedIfEmpty } from '../../../examples/employee-directory/db/seed.ts';
import { upgradeSchema } from '../../../examples/employee-directory/db/upgrade.ts';
import { openDatabase, testDatabases } from '../../support/databases.ts';

type Row = Record<string, unknown>;
type AnyModel = ModelStatic<Model>;

const DAY = 24 * 60 * 60 * 1000;
const BASE = Date.UTC(2020, 0, 1);

/** Every table's rows in id order, as plain objects. */
async function dump(models: Models): Promise<Record<string, Row[]>> {
  const tables: Record<string, Row[]> = {};
  for (const [name, model] of Object.entries(models) as Array<[string, AnyModel]>) {
    tables[name] = (await model.findAll({ order: [['id', 'ASC']], raw: true })) as unknown as Row[];
  }
  return tables;
}

async function counts(models: Models): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const [name, model] of Object.entries(models) as Array<[string, AnyModel]>) result[name] = await model.count();
  return result;
}

const groupCount = <T>(items: T[], key: (item: T) => unknown): Map<unknown, number> => {
  const map = new Map<unknown, number>();
  for (const item of items) map.set(key(item), (map.get(key(item)) ?? 0) + 1);
  return map;
};

/** The example application's database layer on every database. */
for (const db of testDatabases('example_db')) {
  let sequelize: Sequelize;
  let models: Models;

  test.before(async () => {
    sequelize = await openDatabase(db);
    models = defineModels(sequelize);
    await resetDatabase(sequelize);
  });
  test.after.always(async () => {
    await sequelize?.close();
  });

  test.serial(`${db.name}: upgradeSchema adds lock_version to a database made before it, once`, async (t) => {
    const queryInterface = sequelize.getQueryInterface();
    await queryInterface.removeColumn('employees', 'lock_version');
    await upgradeSchema(sequelize);
    await upgradeSchema(sequelize);
    t.true('lock_version' in (await queryInterface.describeTable('employees')));
    await resetDatabase(sequelize);
  });

  test.serial(`${db.name}: seeding twice with the same options gives identical rows`, async (t) => {
    await seed(models, { employees: 60 });
    const first = await dump(models);
    await resetDatabase(sequelize);
    await seed(models, { employees: 60 });
    t.deepEqual(await dump(models), first);
    t.is(first.Employee!.length, 60);
  });

  test.serial(`${db.name}: the default seed has the documented counts`, async (t) => {
    await resetDatabase(sequelize);
    await seed(models);
    const { Position: positions, ...fixed } = await counts(models);
    t.deepEqual(fixed, { Employee: 300, Department: 8, Team: 24, EmployeeTeam: 400, Note: 182, Task: 225, Milestone: 225 });
    t.true(positions! >= 300 && positions! <= 900, `${positions} positions`);
    const types = groupCount(await models.Task.findAll({ raw: true }), (task) => task.type);
    t.deepEqual(Object.fromEntries(types), { bugs: 75, features: 75, epics: 75 });
    const notables = groupCount(await models.Note.findAll({ raw: true }), (note) => note.notable_type);
    t.deepEqual(Object.fromEntries(notables), { employees: 150, teams: 24, departments: 8 });
  });

  test.serial(`${db.name}: employees have realistic names, ages, salaries and creation dates`, async (t) => {
    const employees = await models.Employee.findAll({ order: [['id', 'ASC']] });
    t.like(employees[0]!.get({ plain: true }), { id: 1, first_name: 'Ada', last_name: 'Lovelace' });
    for (const e of employees) {
      t.regex(e.first_name, /^[A-Z][a-z]+$/);
      t.regex(e.last_name, /^[A-Z][A-Za-z']+$/);
      t.true(e.age === null || (Number.isInteger(e.age) && e.age >= 21 && e.age <= 65), `age ${e.age}`);
      t.not(e.salary, null);
      // SQLite has no decimal type and hands back a number; the servers keep the two places
      if (typeof e.salary === 'string') t.regex(e.salary, /^\d+\.\d{2}$/);
      t.true(Math.abs(Number(e.salary) * 100 - Math.round(Number(e.salary) * 100)) < 1e-6, `salary ${e.salary}`);
      t.is(e.created_at.getTime(), BASE + (e.id - 1) * DAY);
      t.is(e.updated_at.getTime(), e.created_at.getTime());
    }
    t.true(employees.some((e) => e.last_name === "O'Brien"));
    t.true(employees.some((e) => e.age === null));
    t.true(new Set(employees.map((e) => e.first_name)).size < employees.length, 'some share a first name');
    t.true(employees.some((e) => /\.\d[1-9]$/.test(Number(e.salary).toFixed(2))), 'cents are used');
  });

  test.serial(`${db.name}: positions: one active for most employees, never two; some without a department`, async (t) => {
    const positions = await models.Position.findAll({ raw: true });
    const perEmployee = groupCount(positions, (p) => p.employee_id);
    t.is(perEmployee.size, 300);
    t.true([...perEmployee.values()].every((n) => n >= 1 && n <= 3));
    const active = groupCount(positions.filter((p) => p.active), (p) => p.employee_id);
    t.true([...active.values()].every((n) => n === 1), 'never two active positions');
    t.true(active.size >= 240 && active.size < 300, `${active.size} employees with an active position`);
    t.true(positions.some((p) => p.department_id === null));
    t.true(positions.every((p) => p.rank !== null && p.rank >= 1 && p.rank <= 10));
    t.true(new Set(positions.map((p) => p.title)).size >= 8, 'titles vary');
  });

  test.serial(`${db.name}: teams, memberships and notes point at existing rows`, async (t) => {
    const teams = await models.Team.findAll({ raw: true });
    t.deepEqual([...groupCount(teams, (team) => team.department_id).values()], Array(8).fill(3));
    const memberships = await models.EmployeeTeam.findAll({ raw: true });
    t.is(new Set(memberships.map((m) => `${m.employee_id}/${m.team_id}`)).size, memberships.length);
    t.is(new Set(memberships.map((m) => m.employee_id)).size, 300);
    t.true(memberships.every((m) => m.team_id >= 1 && m.team_id <= 24));
    const sizes = { employees: 300, teams: 24, departments: 8 };
    for (const note of await models.Note.findAll({ raw: true })) {
      t.true(note.notable_id >= 1 && note.notable_id <= sizes[note.notable_type as keyof typeof sizes], `${note.notable_type} ${note.notable_id}`);
      t.true(note.body.length > 0);
    }
  });

  test.serial(`${db.name}: every association has data`, async (t) => {
    for (const [name, model] of Object.entries(models) as Array<[string, AnyModel]>) {
      for (const association of Object.keys(model.associations)) {
        const found = await model.findOne({ include: [{ association, required: true }] });
        t.truthy(found, `${name}.${association}`);
      }
    }
    const ada = await models.Employee.findByPk(1, { include: ['current_position', 'notes'] });
    const current = ada!.get('current_position') as InstanceType<typeof models.Position> | null;
    if (current) t.true(current.active);
    t.true((ada!.get('notes') as Array<{ notable_type: string }>).every((note) => note.notable_type === 'employees'));
  });

  test.serial(`${db.name}: milestones belong to epics only, and every epic has some`, async (t) => {
    const milestones = await models.Milestone.findAll({ include: ['epic'] });
    t.true(milestones.length > 0);
    t.true(milestones.every((m) => (m.get('epic') as { type: string }).type === 'epics'));
    const withMilestones = await models.Task.findAll({ include: [{ association: 'milestones', required: true }] });
    t.deepEqual(new Set(withMilestones.map((task) => task.type)), new Set(['epics']));
    t.is(withMilestones.length, await models.Task.count({ where: { type: 'epics' } }));
    const tasks = await models.Task.findAll({ raw: true });
    t.true(tasks.every((task) => (task.type === 'bugs') === (task.severity !== null)));
    t.true(tasks.every((task) => (task.type === 'features') === (task.points !== null)));
  });

  test.serial(`${db.name}: seedIfEmpty does nothing on a seeded database`, async (t) => {
    const before = await counts(models);
    t.false(await seedIfEmpty(models));
    t.deepEqual(await counts(models), before);
  });

  test.serial(`${db.name}: rows created after the seed get fresh ids`, async (t) => {
    const employee = await models.Employee.create({ first_name: 'Grace', last_name: 'Hopper' });
    t.is(employee.id, 301);
    const position = await models.Position.create({ title: 'Admiral', employee_id: employee.id });
    t.is(position.id, Number(await models.Position.max('id')));
    t.false(position.active, 'active defaults to false');
    const created = (await models.Employee.findByPk(employee.id))!;
    t.true(created.created_at.getTime() > BASE + 300 * DAY);
  });

  test.serial(`${db.name}: validations reject blank names and titles`, async (t) => {
    const blank = await t.throwsAsync(models.Employee.create({ first_name: '', last_name: 'Hopper' }), { instanceOf: ValidationError });
    t.deepEqual(blank.errors.map((e) => [e.path, e.message]), [['first_name', "can't be blank"]]);
    const missing = await t.throwsAsync(models.Employee.create({ last_name: 'Hopper' }), { instanceOf: ValidationError });
    t.deepEqual(missing.errors.map((e) => [e.path, e.message]), [['first_name', "can't be blank"]]);
    for (const [model, field] of [[models.Position, 'title'], [models.Department, 'name'], [models.Team, 'name'], [models.Milestone, 'name']] as const) {
      const error = await t.throwsAsync((model as AnyModel).build({ [field]: '' }).validate({ fields: [field] }));
      t.regex(error.message, /can't be blank/, `${model.name}.${field}`);
    }
    await t.throwsAsync(models.Task.create({ type: 'chores', title: 'Sweep' }), { instanceOf: ValidationError });
    t.is(await models.Employee.count({ where: { last_name: 'Hopper', first_name: '' } }), 0);
  });

  test.serial(`${db.name}: the tables carry the documented foreign keys, each with its delete behaviour`, async (t) => {
    t.deepEqual(await foreignKeys(sequelize), [
      'employee_teams.employee_id → employees ON DELETE CASCADE',
      'employee_teams.team_id → teams ON DELETE CASCADE',
      'milestones.epic_id → tasks ON DELETE CASCADE',
      'positions.department_id → departments ON DELETE RESTRICT',
      'positions.employee_id → employees ON DELETE CASCADE',
      'tasks.employee_id → employees ON DELETE SET NULL',
      'teams.department_id → departments ON DELETE SET NULL',
    ]);
  });

  test.serial(`${db.name}: a database made before the foreign keys keeps working without them`, async (t) => {
    await resetDatabase(sequelize);
    const queryInterface = sequelize.getQueryInterface();
    // the tables as they were: the same columns, no references (sync() never adds them to existing tables)
    for (const model of [models.Milestone, models.Task, models.EmployeeTeam, models.Team, models.Position] as AnyModel[]) await queryInterface.dropTable(model.getTableName());
    for (const model of [models.Position, models.Team, models.EmployeeTeam, models.Task, models.Milestone] as AnyModel[]) {
      const columns = Object.fromEntries(Object.entries(model.getAttributes()).map(([name, { references: _, onDelete: __, onUpdate: ___, ...column }]) => [name, column]));
      await queryInterface.createTable(model.getTableName(), columns);
    }
    await sequelize.sync();
    await upgradeSchema(sequelize);
    t.is(await foreignKeys(sequelize).then((keys) => keys.length), 0);
    await seed(models, { employees: 12 });
    const position = await models.Position.findOne({ where: { department_id: 1 } });
    await models.Department.destroy({ where: { id: 1 } });
    t.is((await models.Position.findByPk(position!.id))!.department_id, 1, 'nothing enforced: the row keeps its key');
    await resetDatabase(sequelize);
    t.is((await foreignKeys(sequelize)).length, 7);
  });

  test.serial(`${db.name}: seedIfEmpty seeds an empty database; resetDatabase empties it`, async (t) => {
    await resetDatabase(sequelize);
    t.true(await seedIfEmpty(models, { employees: 12 }));
    t.like(await counts(models), { Employee: 12, Department: 8, Team: 24 });
    await resetDatabase(sequelize);
    t.true(Object.values(await counts(models)).every((n) => n === 0));
  });
}

/** Foreign keys declared on the current database's tables, as `table.column → table ON DELETE rule`, sorted. */
async function foreignKeys(sequelize: Sequelize): Promise<string[]> {
  const dialect = sequelize.getDialect();
  const keys: Array<{ table_name: string; column_name: string; ref: string; delete_rule: string }> = [];
  if (dialect === 'sqlite') {
    for (const table of Object.values(sequelize.models).map((m) => m.getTableName() as string)) {
      const rows = await sequelize.query<{ from: string; table: string; on_delete: string }>(`PRAGMA foreign_key_list(\`${table}\`)`, { type: QueryTypes.SELECT });
      keys.push(...rows.map((row) => ({ table_name: table, column_name: row.from, ref: row.table, delete_rule: row.on_delete })));
    }
  } else {
    const schema = dialect === 'postgres' ? 'current_schema()' : 'DATABASE()';
    const referenced = dialect === 'postgres'
      ? 'JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = rc.constraint_name AND ccu.constraint_schema = rc.constraint_schema'
      : '';
    const refTable = dialect === 'postgres' ? 'ccu.table_name' : 'kcu.referenced_table_name';
    keys.push(...(await sequelize.query<(typeof keys)[number]>(
      `SELECT kcu.table_name AS table_name, kcu.column_name AS column_name, ${refTable} AS ref, rc.delete_rule AS delete_rule
       FROM information_schema.referential_constraints rc
       JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = rc.constraint_name AND kcu.constraint_schema = rc.constraint_schema
       ${referenced} WHERE rc.constraint_schema = ${schema}`,
      { type: QueryTypes.SELECT },
    )));
  }
  return keys.map((key) => `${key.table_name}.${key.column_name} → ${key.ref} ON DELETE ${key.delete_rule}`).sort();
}

/** The options Sequelize resolved, which its typings do not expose. */
const optionsOf = (sequelize: Sequelize) => (sequelize as unknown as { options: { storage?: string; logging?: unknown } }).options;

test('connect(":memory:") opens an in-memory SQLite database', async (t) => {
  const sequelize = connect(':memory:');
  t.is(sequelize.getDialect(), 'sqlite');
  t.is(optionsOf(sequelize).storage, ':memory:');
  t.is(optionsOf(sequelize).logging, false);
  await sequelize.authenticate();
  await sequelize.close();
});

test('connect("sqlite:/path") creates the folder and logs only when asked', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'mural-connect-'));
  try {
    const file = join(dir, 'nested', 'directory.db');
    const logged: string[] = [];
    const sequelize = connect(`sqlite:${file}`, { logging: (sql) => void logged.push(sql) });
    t.is(sequelize.getDialect(), 'sqlite');
    t.is(optionsOf(sequelize).storage, file);
    t.true(existsSync(join(dir, 'nested')));
    const models = defineModels(sequelize);
    await resetDatabase(sequelize);
    await seed(models, { employees: 3 });
    t.true(logged.length > 0);
    await sequelize.close();
    t.true(existsSync(file));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('connect(url) picks the dialect from a server URL', async (t) => {
  const servers = testDatabases().filter((db) => db.name !== 'sqlite');
  if (servers.length === 0) return t.pass('no server URL set');
  for (const db of servers) {
    const sequelize = connect(db.url);
    t.true((db.name === 'mysql' ? ['mysql', 'mariadb'] : ['postgres']).includes(sequelize.getDialect()));
    await sequelize.authenticate();
    await sequelize.close();
  }
});
