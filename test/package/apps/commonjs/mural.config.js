// The CLI's view of the app, in CommonJS like the rest of it.
const { defineConfig } = require('mural-cli');
const { AuthorResource, BookResource, seed, sequelize } = require('./library.js');

module.exports = defineConfig({
  async resources() {
    await seed();
    return [AuthorResource, BookResource];
  },
  close: () => sequelize.close(),
});
