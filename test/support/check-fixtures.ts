import test from 'ava';
import { DataTypes, Model, Sequelize } from 'sequelize';
import { checkResources, Resource, ResourceCheckFailed } from '../../core/index.ts';
import { SequelizeAdapter } from '../../plugins/sequelize/index.ts';

/*
 * Models for checkResources' tests: never synced, as the check reads their
 * definitions only. Employees have a title, an age, a department and a
 * manager; positions belong to employees; employees and teams meet in
 * employee_teams; notes are about employees or teams.
 */
const sequelize = new Sequelize({ dialect: 'sqlite', storage: ':memory:', logging: false });
const options = (modelName: string, tableName: string) => ({ sequelize, modelName, tableName, timestamps: false });

export class Employee extends Model {
  declare first_name: string;
  declare last_name: string;
  get full_name(): string {
    return `${this.first_name} ${this.last_name}`;
  }
}
Employee.init(
  { first_name: DataTypes.STRING, last_name: DataTypes.STRING, title: DataTypes.STRING, age: DataTypes.INTEGER, department_id: DataTypes.INTEGER, initials: DataTypes.VIRTUAL },
  options('Employee', 'employees'),
);

export class Department extends Model {}
Department.init({ name: DataTypes.STRING }, options('Department', 'departments'));

export class Position extends Model {}
Position.init({ title: DataTypes.STRING, employee_id: DataTypes.INTEGER, department_id: DataTypes.INTEGER }, options('Position', 'positions'));

export class Team extends Model {}
Team.init({ name: DataTypes.STRING }, options('Team', 'teams'));

export class EmployeeTeam extends Model {}
EmployeeTeam.init({ employee_id: DataTypes.INTEGER, team_id: DataTypes.INTEGER }, options('EmployeeTeam', 'employee_teams'));

export class Note extends Model {}
Note.init({ body: DataTypes.STRING, notable_type: DataTypes.STRING, notable_id: DataTypes.INTEGER }, options('Note', 'notes'));

/** Bugs and features share the tasks table, told apart by `type`. */
export class Task extends Model {}
Task.init({ type: DataTypes.STRING, title: DataTypes.STRING, severity: DataTypes.INTEGER, employee_id: DataTypes.INTEGER }, options('Task', 'tasks'));

/** A fresh abstract base for one test's Resources, so that relationships find that test's classes first. */
export function applicationResource() {
  return class ApplicationResource extends Resource {
    static {
      this.abstractClass = true;
      this.adapter = SequelizeAdapter;
    }
  };
}

type Resources = ReadonlyArray<typeof Resource>;

/** `Resource.member: problem` for each problem of a check, or none when it passes. */
export function problemsOf(resources: Resources): string[] {
  try {
    checkResources(resources);
    return [];
  } catch (error) {
    if (!(error instanceof ResourceCheckFailed)) throw error;
    return error.problems.map((p) => `${p.resource}.${p.member}: ${p.problem}`);
  }
}

/**
 * The check refuses the Resources `declare(true)` makes, with exactly
 * `expected`, each located in the declaring test file; and passes those
 * `declare(false)` makes, the mistake put right.
 */
export const refusedUntilFixed = test.macro((t, declare: (broken: boolean) => Resources, expected: readonly string[]) => {
  const error = t.throws(() => checkResources(declare(true)), { instanceOf: ResourceCheckFailed });
  t.deepEqual(error?.problems.map((p) => `${p.resource}.${p.member}: ${p.problem}`), [...expected]);
  for (const problem of error?.problems ?? []) t.regex(problem.location?.file ?? '', /test\/core\/check\/[a-z-]+\.test\.ts$/, `${problem.member} is located`);
  t.deepEqual(problemsOf(declare(false)), [], 'fixed, it passes');
});
