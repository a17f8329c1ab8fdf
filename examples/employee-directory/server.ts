import type { AddressInfo } from 'node:net';
import { answerClientErrors, gracefulShutdown, muralHealth } from 'mural/express';
import { connect } from './db/connection.ts';
import { seedIfEmpty } from './db/seed.ts';
import { upgradeSchema } from './db/upgrade.ts';
import { createApp } from './app.ts';

// `npm start`: PORT (default 3000; 0 picks a free one), DATABASE_URL (default a SQLite file in .data/), SEED=0 to skip demo data.
const sequelize = connect(process.env.DATABASE_URL);
const { app, models } = createApp(sequelize);
app.get('/health', muralHealth({ check: () => sequelize.query('SELECT 1') }));
await sequelize.sync();
await upgradeSchema(sequelize);
if (process.env.SEED !== '0') await seedIfEmpty(models);
const server = app.listen(Number(process.env.PORT ?? 3000), () => {
  const { port } = server.address() as AddressInfo;
  console.log(`Employee directory: http://localhost:${port}/api/v1/employees`);
  // the router serves its API explorer unless NODE_ENV is production
  if (process.env.NODE_ENV !== 'production') console.log(`API explorer: http://localhost:${port}/api/v1/explorer`);
});
// SIGTERM/SIGINT: finish in-flight requests, then close the pool and exit
gracefulShutdown(server, { close: () => sequelize.close() });
// URLs and headers too long for Node get a JSON:API 431 rather than a bare status line
answerClientErrors(server);
