import express from 'express';
import { DataTypes, Model, type ModelStatic, type Sequelize } from 'sequelize';
import { Resource } from '../../core/index.ts';
import { muralRouter } from '../../plugins/express/index.ts';
import { SequelizeAdapter } from '../../plugins/sequelize/index.ts';
import { openDatabase, type TestDatabase } from './databases.ts';

/**
 * A small API whose boards and cards have UUID keys that clients may
 * generate (`clientGeneratedIds`, as Ember Data and Orbit.js do) or leave to
 * the server (a random one), beside labels with
 * integer keys the server assigns; the router serves atomic operations too.
 * A factory, so each test file gets classes and tables of its own.
 */
export interface BoardApi {
  sequelize: Sequelize;
  models: { Board: ModelStatic<Model>; Card: ModelStatic<Model>; Label: ModelStatic<Model> };
  resources: { BoardResource: typeof Resource; CardResource: typeof Resource; LabelResource: typeof Resource };
  app: express.Express;
}

export async function openBoardApi(db: TestDatabase, key: string): Promise<BoardApi> {
  const sequelize = await openDatabase(db, key);
  const options = { sequelize, timestamps: false, underscored: true };
  class Board extends Model {}
  Board.init({ id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 }, name: { type: DataTypes.STRING, allowNull: false, validate: { notEmpty: true } } }, { ...options, tableName: 'boards' });
  class Card extends Model {}
  Card.init({ id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 }, title: { type: DataTypes.STRING, allowNull: false }, board_id: DataTypes.UUID }, { ...options, tableName: 'cards' });
  class Label extends Model {}
  Label.init({ id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true }, text: DataTypes.STRING, card_id: DataTypes.UUID }, { ...options, tableName: 'labels' });
  await sequelize.sync({ force: true });

  class Base extends Resource {
    static {
      this.abstractClass = true;
      this.adapter = SequelizeAdapter;
      this.endpointNamespace = '/api';
    }
  }
  class BoardResource extends Base {
    static {
      this.model = Board;
      this.type = 'boards';
      this.clientGeneratedIds = true;
      this.attribute('id', 'uuid', { writable: false });
      this.attribute('name', 'string');
      this.hasMany('cards', { resource: () => CardResource });
    }
  }
  class CardResource extends Base {
    static {
      this.model = Card;
      this.type = 'cards';
      this.clientGeneratedIds = true;
      this.attribute('id', 'uuid', { writable: false });
      this.attribute('title', 'string');
      this.attribute('board_id', 'uuid', { only: ['filterable', 'writable'] });
      this.belongsTo('board', { resource: () => BoardResource });
      this.hasMany('labels', { resource: () => LabelResource });
    }
  }
  class LabelResource extends Base {
    static {
      this.model = Label;
      this.type = 'labels';
      this.attribute('text', 'string');
      this.attribute('card_id', 'uuid', { only: ['filterable', 'writable'] });
      this.belongsTo('card', { resource: () => CardResource });
    }
  }
  const app = express();
  app.use(muralRouter({ resources: [BoardResource, CardResource, LabelResource], operations: true }));
  return { sequelize, models: { Board, Card, Label }, resources: { BoardResource, CardResource, LabelResource }, app };
}
