import type { Sequelize } from 'sequelize';
import { defineDepartment } from './department.ts';
import { defineEmployee } from './employee.ts';
import { defineNote } from './note.ts';
import { definePosition } from './position.ts';
import { defineMilestone, defineTask } from './task.ts';
import { defineEmployeeTeam, defineTeam } from './team.ts';

export { Employee } from './employee.ts';
export { Position } from './position.ts';
export { Department } from './department.ts';
export { Team, EmployeeTeam } from './team.ts';
export { Note } from './note.ts';
export { Task, Milestone } from './task.ts';

/**
 * Defines every model on `sequelize` and wires their associations. The
 * foreign-key constraints are declared on the columns (each with its delete
 * behaviour, see foreign-key.ts), so the associations add none of their
 * own; `notes.notable_id` refers to one of three tables and has none.
 */
export function defineModels(sequelize: Sequelize) {
  const Employee = defineEmployee(sequelize);
  const Position = definePosition(sequelize);
  const Department = defineDepartment(sequelize);
  const Team = defineTeam(sequelize);
  const EmployeeTeam = defineEmployeeTeam(sequelize);
  const Note = defineNote(sequelize);
  const Task = defineTask(sequelize);
  const Milestone = defineMilestone(sequelize);
  const loose = { constraints: false };

  Employee.hasMany(Position, { as: 'positions', foreignKey: 'employee_id', ...loose });
  Employee.hasOne(Position, { as: 'current_position', foreignKey: 'employee_id', scope: { active: true }, ...loose });
  Position.belongsTo(Employee, { as: 'employee', foreignKey: 'employee_id', ...loose });
  Position.belongsTo(Department, { as: 'department', foreignKey: 'department_id', ...loose });
  Department.hasMany(Position, { as: 'positions', foreignKey: 'department_id', ...loose });
  Department.hasMany(Team, { as: 'teams', foreignKey: 'department_id', ...loose });
  Team.belongsTo(Department, { as: 'department', foreignKey: 'department_id', ...loose });
  Employee.belongsToMany(Team, { as: 'teams', through: EmployeeTeam, foreignKey: 'employee_id', otherKey: 'team_id', ...loose });
  Team.belongsToMany(Employee, { as: 'employees', through: EmployeeTeam, foreignKey: 'team_id', otherKey: 'employee_id', ...loose });
  Employee.hasMany(Note, { as: 'notes', foreignKey: 'notable_id', scope: { notable_type: 'employees' }, ...loose });
  Employee.hasMany(Task, { as: 'tasks', foreignKey: 'employee_id', ...loose });
  Task.belongsTo(Employee, { as: 'employee', foreignKey: 'employee_id', ...loose });
  Task.hasMany(Milestone, { as: 'milestones', foreignKey: 'epic_id', ...loose });
  Milestone.belongsTo(Task, { as: 'epic', foreignKey: 'epic_id', ...loose });

  return { Employee, Position, Department, Team, EmployeeTeam, Note, Task, Milestone };
}

export type Models = ReturnType<typeof defineModels>;
