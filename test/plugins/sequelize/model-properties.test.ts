import test from 'ava';
import { DataTypes, Model, type Sequelize } from 'sequelize';
import { checkResources, Resource } from '../../../core/index.ts';
import { SequelizeAdapter } from '../../../plugins/sequelize/index.ts';
import { openDatabase, testDatabases } from '../../support/databases.ts';

/**
 * Attributes the model supplies without a column, which checkResources lets
 * pass: a getter of the model class, a VIRTUAL attribute, and what a
 * `virtual: true` attribute stands for. Reads render them, however the
 * records are read (a plain SELECT would carry columns alone), and a VIRTUAL
 * attribute is never selected as a column.
 */
for (const db of testDatabases('model_properties')) {
  let sequelize: Sequelize;
  let AuthorResource: typeof Resource;
  let BookResource: typeof Resource;

  test.before(async () => {
    sequelize = await openDatabase(db);
    class Author extends Model {
      get shouted(): string {
        return String(this.get('name')).toUpperCase();
      }
    }
    Author.init(
      { name: DataTypes.STRING, initials: { type: DataTypes.VIRTUAL, get(this: Author) { return String(this.get('name')).slice(0, 1); } } },
      { sequelize, modelName: 'Author', tableName: 'authors', timestamps: false },
    );
    class Book extends Model {}
    Book.init({ title: DataTypes.STRING, author_id: DataTypes.INTEGER }, { sequelize, modelName: 'Book', tableName: 'books', timestamps: false });
    await sequelize.sync();
    const ada = await Author.create({ name: 'Ada' });
    await Book.bulkCreate([{ title: 'Notes', author_id: ada.get('id') }, { title: 'Letters', author_id: ada.get('id') }]);
    AuthorResource = class AuthorResource extends Resource {
      static {
        this.adapter = SequelizeAdapter;
        this.model = Author;
        this.type = 'authors';
        this.attribute('name', 'string');
        this.attribute('shouted', 'string', { writable: false, virtual: true });
        this.attribute('initials', 'string', { writable: false, virtual: true });
        this.hasMany('books', { resource: () => BookResource });
      }
    };
    BookResource = class BookResource extends Resource {
      static {
        this.adapter = SequelizeAdapter;
        this.model = Book;
        this.type = 'books';
        this.attribute('title', 'string');
        this.belongsTo('author', { resource: () => AuthorResource });
      }
    };
    checkResources([AuthorResource, BookResource]);
  });
  test.after.always(async () => sequelize?.close());

  test(`${db.name}: a getter and a VIRTUAL attribute render on index, show and include`, async (t) => {
    const index = (await AuthorResource.all({ include: 'books', page: { books: { size: 1 } } }).toJsonapi()) as { data: Array<{ attributes: object }> };
    t.like(index.data[0]!.attributes, { name: 'Ada', shouted: 'ADA', initials: 'A' });
    const show = (await AuthorResource.find({ id: 1 }).toJsonapi()) as { data: { attributes: object } };
    t.like(show.data.attributes, { shouted: 'ADA', initials: 'A' });
    const books = (await BookResource.all({ include: 'author' }).toJsonapi()) as { included: Array<{ attributes: object }> };
    t.like(books.included[0]!.attributes, { shouted: 'ADA', initials: 'A' });
  });

  test(`${db.name}: declared virtual, they are neither filters nor sorts: asking for one is a 400, never a database error`, async (t) => {
    const filter = await t.throwsAsync(AuthorResource.all({ filter: { shouted: 'ADA' } }).data);
    t.like(filter, { status: 400, code: 'unknown_filter', parameter: 'filter[shouted]' });
    const sort = await t.throwsAsync(AuthorResource.all({ sort: '-initials' }).data);
    t.like(sort, { status: 400, code: 'unknown_sort', parameter: 'sort' });
  });

  test(`${db.name}: an author is written with its VIRTUAL attribute in the model`, async (t) => {
    const created = AuthorResource.build({ data: { type: 'authors', attributes: { name: 'Grace' } } });
    t.true(await created.save(), JSON.stringify(created.errors));
    const show = (await AuthorResource.find({ id: (created.data as { id: number }).id }).toJsonapi()) as { data: { attributes: object } };
    t.like(show.data.attributes, { name: 'Grace', shouted: 'GRACE', initials: 'G' });
  });
}
