// TypeScript run as is through tsx, with no build step.
import type { AddressInfo } from 'node:net';
import express from 'express';
import { DataTypes, Model, Sequelize } from 'sequelize';
import { Resource } from 'mural';
import { SequelizeAdapter } from 'mural/sequelize';
import { muralRouter } from 'mural/express';

const sequelize = new Sequelize({ dialect: 'sqlite', storage: ':memory:', logging: false });
class Author extends Model {
  declare id: number;
}
Author.init({ name: { type: DataTypes.STRING, allowNull: false } }, { sequelize, tableName: 'authors', timestamps: false });
class Book extends Model {}
Book.init({ title: { type: DataTypes.STRING, allowNull: false }, author_id: DataTypes.INTEGER }, { sequelize, tableName: 'books', timestamps: false });

class AuthorResource extends Resource {
  static {
    this.adapter = SequelizeAdapter;
    this.endpointNamespace = '/api/v1';
    this.model = Author;
    this.type = 'authors';
    this.attribute('name', 'string');
    this.hasMany('books', { resource: () => BookResource });
  }
}
class BookResource extends Resource {
  static {
    this.adapter = SequelizeAdapter;
    this.endpointNamespace = '/api/v1';
    this.model = Book;
    this.type = 'books';
    this.attribute('title', 'string');
    this.attribute('author_id', 'integer_id', { only: ['filterable'] });
    this.belongsTo('author', { resource: () => AuthorResource });
  }
}

await sequelize.sync();
const ada = await Author.create({ name: 'Ada Lovelace' });
const mary = await Author.create({ name: 'Mary Shelley' });
await Book.bulkCreate([
  { title: 'Notes on the Analytical Engine', author_id: ada.id },
  { title: 'Frankenstein', author_id: mary.id },
  { title: 'The Last Man', author_id: mary.id },
]);

const app = express();
app.use(muralRouter({ resources: [AuthorResource, BookResource] }));
const server = app.listen(0, () => console.log(`listening ${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => server.close(() => void sequelize.close()));
