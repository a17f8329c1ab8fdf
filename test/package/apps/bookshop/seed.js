// The existing app's data, there before Mural is installed.
import { sequelize } from './db.js';
import { Book } from './models/book.js';

await sequelize.sync();
await Book.bulkCreate([
  { title: 'Tender Is the Night', published_on: '1934-04-12' },
  { title: 'The Night Circus', published_on: '2011-09-13' },
  { title: 'Frankenstein', published_on: '1818-01-01' },
  { title: 'Night Film', published_on: '2013-08-20' },
]);
await sequelize.close();
