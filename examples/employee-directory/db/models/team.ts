import { DataTypes, Model, type Sequelize } from 'sequelize';

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
      department_id: { type: DataTypes.INTEGER, allowNull: true },
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
      employee_id: { type: DataTypes.INTEGER, allowNull: false },
      team_id: { type: DataTypes.INTEGER, allowNull: false },
    },
    {
      sequelize, modelName: 'EmployeeTeam', tableName: 'employee_teams', underscored: true, timestamps: false,
      indexes: [{ unique: true, fields: ['employee_id', 'team_id'] }, { fields: ['team_id'] }],
    },
  );
  return BoundEmployeeTeam;
}
