import { DataTypes, Model, type Sequelize } from 'sequelize';
import { references } from './foreign-key.ts';

export class Position extends Model {
  declare id: number;
  declare title: string;
  declare active: boolean;
  declare rank: number | null;
  declare employee_id: number | null;
  declare department_id: number | null;
}

export function definePosition(sequelize: Sequelize): typeof Position {
  class BoundPosition extends Position {}
  BoundPosition.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      title: { type: DataTypes.STRING, allowNull: false, validate: { notEmpty: { msg: "can't be blank" }, notNull: { msg: "can't be blank" } } },
      active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      rank: { type: DataTypes.INTEGER, allowNull: true },
      // a position is part of its employee's history: it goes with the employee
      employee_id: { type: DataTypes.INTEGER, allowNull: true, ...references('employees', 'CASCADE') },
      // a department that people hold positions in is not deleted from under them (409)
      department_id: { type: DataTypes.INTEGER, allowNull: true, ...references('departments', 'RESTRICT') },
    },
    {
      sequelize, modelName: 'Position', tableName: 'positions', underscored: true, timestamps: false,
      indexes: [{ fields: ['employee_id'] }, { fields: ['department_id'] }],
    },
  );
  return BoundPosition;
}
