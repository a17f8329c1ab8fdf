import { DataTypes, Model, type Sequelize } from 'sequelize';

export class Department extends Model {
  declare id: number;
  declare name: string;
}

export function defineDepartment(sequelize: Sequelize): typeof Department {
  class BoundDepartment extends Department {}
  BoundDepartment.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      name: { type: DataTypes.STRING, allowNull: false, validate: { notEmpty: { msg: "can't be blank" }, notNull: { msg: "can't be blank" } } },
    },
    { sequelize, modelName: 'Department', tableName: 'departments', underscored: true, timestamps: false },
  );
  return BoundDepartment;
}
