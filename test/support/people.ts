import { DataTypes, Model, type Sequelize } from 'sequelize';
import { Resource } from '../../core/index.ts';
import { SequelizeAdapter } from '../../plugins/sequelize/index.ts';

/**
 * A table with one column of every scalar type, and rows chosen to trip up
 * filters: case variants, LIKE wildcards in values, nulls.
 */
export class Person extends Model {
  declare id: number;
  declare name: string;
  declare nickname: string | null;
  declare age: number | null;
  declare salary: string | null;
  declare rating: number | null;
  declare active: boolean;
  declare born_on: string | null;
  declare seen_at: Date | null;
  declare token: string | null;
  declare status: string;
  declare level: number;
  declare profile: Record<string, unknown> | null;
}

export const PEOPLE = [
  { name: 'Ada', nickname: 'countess', age: 36, salary: '70.03', rating: 4.5, active: true, born_on: '1815-12-10', seen_at: new Date('2020-01-01T10:00:00Z'), token: '0f8fad5b-d9cb-469f-a165-70867728950e', status: 'active', level: 3, profile: { lang: 'en' } },
  { name: 'ada', nickname: null, age: 20, salary: '10.50', rating: 3.25, active: false, born_on: '2001-05-01', seen_at: new Date('2021-06-15T12:30:00Z'), token: '7c9e6679-7425-40de-944b-e07fc1f90ae7', status: 'inactive', level: 1, profile: null },
  { name: '100% Pure', nickname: 'percent', age: 50, salary: '1000', rating: 1.5, active: true, born_on: '1970-01-01', seen_at: null, token: null, status: 'active', level: 2, profile: null },
  { name: 'snake_case', nickname: 'under_score', age: null, salary: null, rating: null, active: false, born_on: null, seen_at: new Date('2019-03-03T00:00:00Z'), token: null, status: 'pending', level: 1, profile: null },
  { name: 'back\\slash', nickname: 'slash', age: 41, salary: '99.99', rating: 2, active: true, born_on: '1983-07-07', seen_at: new Date('2022-02-02T02:02:02Z'), token: null, status: 'inactive', level: 2, profile: null },
  { name: "O'Brien", nickname: 'obi', age: 29, salary: '55.1', rating: 5, active: true, born_on: '1995-09-09', seen_at: new Date('2023-03-03T03:03:03Z'), token: null, status: 'active', level: 3, profile: null },
];

export async function definePeople(sequelize: Sequelize): Promise<typeof Person> {
  class BoundPerson extends Person {}
  BoundPerson.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      name: { type: DataTypes.STRING, allowNull: false },
      nickname: DataTypes.STRING,
      age: DataTypes.INTEGER,
      salary: DataTypes.DECIMAL(10, 2),
      rating: DataTypes.FLOAT,
      active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      born_on: DataTypes.DATEONLY,
      seen_at: DataTypes.DATE,
      token: DataTypes.STRING(36),
      status: { type: DataTypes.STRING, allowNull: false },
      level: { type: DataTypes.INTEGER, allowNull: false },
      profile: DataTypes.JSON,
    },
    { sequelize, modelName: 'Person', tableName: 'people', timestamps: false },
  );
  await BoundPerson.sync({ force: true });
  await BoundPerson.bulkCreate(PEOPLE);
  return BoundPerson;
}

/** A Resource over every column of `people`, with nothing customised. */
export function personResource(model: typeof Person) {
  return class PersonResource extends Resource {
    static {
      this.adapter = SequelizeAdapter;
      this.model = model;
      this.type = 'people';
      this.attribute('name', 'string');
      this.attribute('nickname', 'string');
      this.attribute('age', 'integer');
      this.attribute('salary', 'big_decimal');
      this.attribute('rating', 'float');
      this.attribute('active', 'boolean');
      this.attribute('born_on', 'date');
      this.attribute('seen_at', 'datetime');
      this.attribute('token', 'uuid');
      this.attribute('status', 'string_enum', { allow: ['active', 'inactive', 'pending'] });
      this.attribute('level', 'integer_enum', { allow: [1, 2, 3] });
      this.attribute('profile', 'hash');
    }
  };
}
