// A plain ES module app: no build step, no TypeScript.
import express from 'express';
import { muralRouter } from 'mural/express';
import { AuthorResource, BookResource, seed, sequelize } from './library.js';

await seed();
const app = express();
app.use(muralRouter({ resources: [AuthorResource, BookResource] }));
const server = app.listen(0, () => console.log(`listening ${server.address().port}`));
process.on('SIGTERM', () => server.close(() => void sequelize.close()));
