import { connect } from './db/connection.ts';
import { seedIfEmpty } from './db/seed.ts';
import { createApp } from './app.ts';
import { answerClientErrors } from '../../plugins/express/index.ts';

// `npm start`: PORT (default 3000), DATABASE_URL (default a SQLite file in .data/), SEED=0 to skip demo data.
const sequelize = connect(process.env.DATABASE_URL);
const { app, models } = createApp(sequelize);
await sequelize.sync();
if (process.env.SEED !== '0') await seedIfEmpty(models);
const port = Number(process.env.PORT ?? 3000);
const server = app.listen(port, () => {
  console.log(`Employee directory: http://localhost:${port}/api/v1/employees`);
});
// URLs and headers too long for Node get a JSON:API 431 rather than a bare status line
answerClientErrors(server);
