import type { AddressInfo } from 'node:net';
import { app } from './app.js';
import { sequelize } from './db.js';
import { Author } from './models/author.js';
import { Book } from './models/book.js';

await sequelize.sync();
if ((await Author.count()) === 0) {
  const ada = await Author.create({ name: 'Ada Lovelace' });
  const mary = await Author.create({ name: 'Mary Shelley' });
  await Book.bulkCreate([
    { title: 'Notes on the Analytical Engine', author_id: ada.id },
    { title: 'Frankenstein', author_id: mary.id },
    { title: 'The Last Man', author_id: mary.id },
  ]);
}
const server = app.listen(Number(process.env.PORT ?? 3000), () => {
  console.log(`listening ${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => server.close(() => void sequelize.close()));
