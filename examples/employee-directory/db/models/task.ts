import { DataTypes, Model, type Sequelize } from 'sequelize';
import { references } from './foreign-key.ts';

/** Bugs, features and epics share one table, told apart by `type`. */
export class Task extends Model {
  declare id: number;
  declare type: 'bugs' | 'features' | 'epics';
  declare title: string;
  declare employee_id: number | null;
  declare severity: number | null;
  declare points: number | null;
}

export class Milestone extends Model {
  declare id: number;
  declare name: string;
  declare epic_id: number;
}

const blank = { notEmpty: { msg: "can't be blank" }, notNull: { msg: "can't be blank" } };

export function defineTask(sequelize: Sequelize): typeof Task {
  class BoundTask extends Task {}
  BoundTask.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      type: { type: DataTypes.STRING, allowNull: false, validate: { isIn: { args: [['bugs', 'features', 'epics']], msg: 'is not a task type' } } },
      title: { type: DataTypes.STRING, allowNull: false, validate: blank },
      // a task stays when its assignee leaves, unassigned
      employee_id: { type: DataTypes.INTEGER, allowNull: true, ...references('employees', 'SET NULL') },
      severity: { type: DataTypes.INTEGER, allowNull: true },
      points: { type: DataTypes.INTEGER, allowNull: true },
    },
    { sequelize, modelName: 'Task', tableName: 'tasks', underscored: true, timestamps: false, indexes: [{ fields: ['employee_id'] }] },
  );
  return BoundTask;
}

export function defineMilestone(sequelize: Sequelize): typeof Milestone {
  class BoundMilestone extends Milestone {}
  BoundMilestone.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      name: { type: DataTypes.STRING, allowNull: false, validate: blank },
      // an epic's milestones are part of it
      epic_id: { type: DataTypes.INTEGER, allowNull: false, ...references('tasks', 'CASCADE') },
    },
    { sequelize, modelName: 'Milestone', tableName: 'milestones', underscored: true, timestamps: false, indexes: [{ fields: ['epic_id'] }] },
  );
  return BoundMilestone;
}
