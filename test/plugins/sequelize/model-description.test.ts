import test from 'ava';
import { DataTypes, Model, Sequelize } from 'sequelize';
import { SequelizeAdapter } from '../../../plugins/sequelize/index.ts';

/** What the Sequelize adapter tells checkResources of a model. */

const sequelize = new Sequelize({ dialect: 'sqlite', storage: ':memory:', logging: false });
class Person extends Model {
  get shout(): string {
    return String(this.get('first_name')).toUpperCase();
  }
}
class BoundPerson extends Person {}
BoundPerson.init(
  { first_name: DataTypes.STRING, initials: DataTypes.VIRTUAL, lastName: { type: DataTypes.STRING, field: 'last_name' } },
  { sequelize, modelName: 'Person', tableName: 'people', underscored: true, timestamps: true },
);
class Membership extends Model {}
Membership.init({ person_id: DataTypes.INTEGER, club_id: DataTypes.INTEGER }, { sequelize, tableName: 'memberships', timestamps: false });

const adapter = new SequelizeAdapter({ model: BoundPerson, type: 'people', name: 'PersonResource' });

test('columns by the names records carry them under; getters and VIRTUAL attributes as properties; the other tables', (t) => {
  const description = adapter.describeModel(BoundPerson)!;
  t.is(description.name, 'Person');
  t.deepEqual(description.columns, ['id', 'first_name', 'lastName', 'createdAt', 'updatedAt']);
  t.deepEqual(description.properties, ['initials', 'shout']);
  t.deepEqual(description.tables.get('memberships'), ['id', 'person_id', 'club_id']);
  t.deepEqual(description.tables.get('people'), description.columns);
});

test('anything but an initialised model is not described', (t) => {
  class Unbound extends Model {}
  t.is(adapter.describeModel(Unbound), undefined);
  t.is(adapter.describeModel({ findAll() {} }), undefined);
  t.is(adapter.describeModel(undefined), undefined);
});
