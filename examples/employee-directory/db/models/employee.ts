import { DataTypes, Model, type Sequelize } from 'sequelize';

export class Employee extends Model {
  declare id: number;
  declare first_name: string;
  declare last_name: string;
  declare age: number | null;
  /** DECIMAL: a string on PostgreSQL and MariaDB, a number on SQLite (it has no decimal type). */
  declare salary: string | number | null;
  declare created_at: Date;
  declare updated_at: Date;
  /** Sequelize's optimistic lock: every save adds one, and a save of a stale copy fails. */
  declare lock_version: number;
}

const required = { notEmpty: { msg: "can't be blank" }, notNull: { msg: "can't be blank" } };

export function defineEmployee(sequelize: Sequelize): typeof Employee {
  class BoundEmployee extends Employee {}
  BoundEmployee.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      first_name: { type: DataTypes.STRING, allowNull: false, validate: required },
      last_name: { type: DataTypes.STRING, allowNull: false, validate: required },
      age: { type: DataTypes.INTEGER, allowNull: true },
      salary: { type: DataTypes.DECIMAL(12, 2), allowNull: true },
    },
    { sequelize, modelName: 'Employee', tableName: 'employees', underscored: true, timestamps: true, createdAt: 'created_at', updatedAt: 'updated_at', version: 'lock_version' },
  );
  return BoundEmployee;
}
