import { DataTypes, Model, type Sequelize } from 'sequelize';
import { references } from './foreign-key.ts';

export class Team extends Model {
  declare id: number;
  declare name: string;
  declare department_id: number | null;
}

export class EmployeeTeam extends Model {
  declare id: number;
  declare employee_id: number;
  declare team_id: number;
}

export function defineTeam(sequelize: Sequelize): typeof Team {
  class BoundTeam extends Team {}
  BoundTeam.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      name: { type: DataTypes.STRING, allowNull: false, validate: { notEmpty: { msg: "can't be blank" }, notNull: { msg: "can't be blank" } } },
      // a team outlives its department, unattached
      department_id: { type: DataTypes.INTEGER, allowNull: true, ...references('departments', 'SET NULL') },
    },
    { sequelize, modelName: 'Team', tableName: 'teams', underscored: true, timestamps: false, indexes: [{ fields: ['department_id'] }] },
  );
  return BoundTeam;
}

/** The join table of employees and teams. */
export function defineEmployeeTeam(sequelize: Sequelize): typeof EmployeeTeam {
  class BoundEmployeeTeam extends EmployeeTeam {}
  BoundEmployeeTeam.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      // a membership is nothing without either side
      employee_id: { type: DataTypes.INTEGER, allowNull: false, ...references('employees', 'CASCADE') },
      team_id: { type: DataTypes.INTEGER, allowNull: false, ...references('teams', 'CASCADE') },
    },
    {
      sequelize, modelName: 'EmployeeTeam', tableName: 'employee_teams', underscored: true, timestamps: false,
      indexes: [{ unique: true, fields: ['employee_id', 'team_id'] }, { fields: ['team_id'] }],
    },
  );
  return BoundEmployeeTeam;
}
