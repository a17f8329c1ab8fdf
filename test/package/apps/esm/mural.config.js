// The CLI's view of the app: a JavaScript config, which needs no TypeScript loader.
import { defineConfig } from 'mural-cli';
import { AuthorResource, BookResource, seed, sequelize } from './library.js';

export default defineConfig({
  async resources() {
    await seed();
    return [AuthorResource, BookResource];
  },
  close: () => sequelize.close(),
});
