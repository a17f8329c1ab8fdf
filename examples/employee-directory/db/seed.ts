import type { Sequelize } from 'sequelize';
import type { Models } from './models/index.ts';
import { DEPARTMENTS, FIRST_NAMES, LAST_NAMES, MILESTONES, NOTE_BODIES, TASK_TITLES, TEAM_SUFFIXES, TITLES } from './seed-data.ts';

export interface SeedOptions {
  /** How many employees; 300 by default. */
  employees?: number;
}

const BASE_DATE = Date.UTC(2020, 0, 1);
const DAY = 24 * 60 * 60 * 1000;
const TASK_TYPES = ['bugs', 'features', 'epics'] as const;

/** A small linear congruential generator: the same seed gives the same demo data everywhere. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

type Row = Record<string, unknown>;

function employeeRows(count: number, random: () => number): Row[] {
  return Array.from({ length: count }, (_, i) => {
    const first = i === 0 ? 'Ada' : FIRST_NAMES[Math.floor(random() * FIRST_NAMES.length)]!;
    const last = i === 0 ? 'Lovelace' : LAST_NAMES[Math.floor(random() * LAST_NAMES.length)]!;
    const age = i % 17 === 5 ? null : 21 + Math.floor(random() * 45);
    const salary = (40000 + Math.floor(random() * 120000) + Math.floor(random() * 100) / 100).toFixed(2);
    const created = new Date(BASE_DATE + i * DAY);
    return { id: i + 1, first_name: first, last_name: last, age, salary, created_at: created, updated_at: created };
  });
}

function positionRows(employees: number, random: () => number): Row[] {
  const rows: Row[] = [];
  for (let e = 1; e <= employees; e++) {
    const count = 1 + Math.floor(random() * 3);
    const hasActive = e % 11 !== 0;
    for (let p = 0; p < count; p++) {
      rows.push({
        id: rows.length + 1,
        title: TITLES[Math.floor(random() * TITLES.length)]!,
        active: hasActive && p === count - 1,
        rank: 1 + Math.floor(random() * 10),
        employee_id: e,
        department_id: (e + p) % 13 === 0 ? null : 1 + Math.floor(random() * DEPARTMENTS.length),
      });
    }
  }
  return rows;
}

function teamRows(): Row[] {
  return DEPARTMENTS.flatMap((department, d) =>
    TEAM_SUFFIXES.map((suffix, s) => ({ id: d * TEAM_SUFFIXES.length + s + 1, name: `${department} ${suffix}`, department_id: d + 1 })),
  );
}

function membershipRows(employees: number, teams: number, random: () => number): Row[] {
  const rows: Row[] = [];
  for (let e = 1; e <= employees; e++) {
    const first = 1 + Math.floor(random() * teams);
    rows.push({ employee_id: e, team_id: first });
    if (e % 3 === 0) rows.push({ employee_id: e, team_id: (first % teams) + 1 });
  }
  return rows.map((row, i) => ({ id: i + 1, ...row }));
}

function noteRows(employees: number, teams: number): Row[] {
  const rows: Row[] = [];
  const add = (notable_type: string, notable_id: number) =>
    rows.push({ id: rows.length + 1, body: NOTE_BODIES[rows.length % NOTE_BODIES.length]!, notable_type, notable_id });
  for (let e = 1; e <= employees; e += 2) add('employees', e);
  for (let t = 1; t <= teams; t++) add('teams', t);
  for (let d = 1; d <= DEPARTMENTS.length; d++) add('departments', d);
  return rows;
}

function taskRows(employees: number, random: () => number): { tasks: Row[]; milestones: Row[] } {
  const tasks: Row[] = [];
  const milestones: Row[] = [];
  for (let e = 1; e <= employees; e++) {
    if (e % 4 === 3) continue;
    const type = TASK_TYPES[e % 3]!;
    const titles = TASK_TITLES[type];
    const id = tasks.length + 1;
    tasks.push({
      id, type, title: titles[Math.floor(random() * titles.length)]!, employee_id: e,
      severity: type === 'bugs' ? 1 + Math.floor(random() * 5) : null,
      points: type === 'features' ? [1, 2, 3, 5, 8][Math.floor(random() * 5)]! : null,
    });
    if (type === 'epics') MILESTONES.forEach((name) => milestones.push({ id: milestones.length + 1, name, epic_id: id }));
  }
  return { tasks, milestones };
}

/**
 * Inserts the demo data in a few batched statements, into empty tables (ids are
 * explicit). The same options always give the same rows. With N employees
 * (300 by default): 8 departments, 24 teams (3 each), N employees (Ada Lovelace
 * is id 1), N to 3N positions, N + ⌊N/3⌋ team memberships, ⌈N/2⌉ + 32 notes (on
 * odd-numbered employees, every team, every department), N − ⌊(N+1)/4⌋ tasks
 * (bugs, features and epics in turn) and 3 milestones per epic. For 300: 400
 * memberships, 182 notes, 225 tasks (75 of each type), 225 milestones.
 */
export async function seed(models: Models, options: SeedOptions = {}): Promise<void> {
  const count = options.employees ?? 300;
  const random = generator(20200101);
  const teams = teamRows();
  const { tasks, milestones } = taskRows(count, random);
  const sequelize = models.Employee.sequelize!;
  await sequelize.transaction(async (transaction) => {
    const opts = { transaction, validate: false };
    await models.Department.bulkCreate(DEPARTMENTS.map((name, i) => ({ id: i + 1, name })), opts);
    await models.Team.bulkCreate(teams, opts);
    await models.Employee.bulkCreate(employeeRows(count, random), opts);
    await models.Position.bulkCreate(positionRows(count, random), opts);
    await models.EmployeeTeam.bulkCreate(membershipRows(count, teams.length, random), opts);
    await models.Note.bulkCreate(noteRows(count, teams.length), opts);
    await models.Task.bulkCreate(tasks, opts);
    await models.Milestone.bulkCreate(milestones, opts);
  });
  await resetSequences(sequelize);
}

/** Seeds only an empty database, so restarting the server keeps what clients wrote. */
export async function seedIfEmpty(models: Models, options: SeedOptions = {}): Promise<boolean> {
  if ((await models.Employee.count()) > 0) return false;
  await seed(models, options);
  return true;
}

/**
 * Drops and recreates the tables of every model defined on `sequelize`.
 * Sequelize orders both by the foreign keys (referring tables dropped first,
 * created last), so no constraint trips and MySQL needs no FOREIGN_KEY_CHECKS switch.
 */
export async function resetDatabase(sequelize: Sequelize): Promise<void> {
  await sequelize.sync({ force: true });
}

/** Explicit ids leave PostgreSQL's sequences behind; move them past the seeded rows. */
async function resetSequences(sequelize: Sequelize): Promise<void> {
  if (sequelize.getDialect() !== 'postgres') return;
  for (const model of Object.values(sequelize.models)) {
    const table = model.getTableName() as string;
    await sequelize.query(`SELECT setval(pg_get_serial_sequence('"${table}"', 'id'), COALESCE((SELECT MAX(id) FROM "${table}"), 0) + 1, false)`);
  }
}
