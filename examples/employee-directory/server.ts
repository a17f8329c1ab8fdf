import cluster from 'node:cluster';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Sequelize } from 'sequelize';
import { answerClientErrors, gracefulShutdown, limitSlowClients, muralHealth } from 'mural/express';
import { connect } from './db/connection.ts';
import { verifyConnection } from './db/database-url.ts';
import type { Models } from './db/models/index.ts';
import { seedIfEmpty } from './db/seed.ts';
import { upgradeSchema } from './db/upgrade.ts';
import { createApp } from './app.ts';
import { tokenKey } from './auth/tokens.ts';
import { supervise, workerCount } from './workers.ts';
import { failStartup, portAvailable, starting } from './startup-failure.ts';

// `npm start`: PORT (default 3000; 0 picks a free one), DATABASE_URL (default a SQLite file in .data/), SEED=0 to skip demo data,
// MURAL_WORKERS (default 1; `auto`: one per core): processes sharing the port; DATABASE_REPLICA_URLS, DATABASE_POOL_MAX (db/connection.ts).
// a bad DATABASE_URL or PORT ends the process with one line saying what to change (startup-failure.ts)
const workers = workerCount();
const port = Number(process.env.PORT ?? 3000);
const url = (port: number) => `http://localhost:${port}/api/v1/employees`;
// tokens are checked with MURAL_TOKEN_SECRET: production does not start without one (auth/tokens.ts)
starting(() => tokenKey());
const sequelize = starting(() => connect(process.env.DATABASE_URL));
const { app, models } = createApp(sequelize);

if (cluster.isPrimary) await prepareDatabase(sequelize, models).catch(failStartup);
if (workers > 1 && cluster.isPrimary) {
  // the primary only hands out connections; its own database connection is not needed any more
  await sequelize.close();
  await portAvailable(port).catch(failStartup);
  supervise({ workers, env: {}, listening: (port) => announce(port, ` (${workers} workers)`) });
} else {
  serve();
}

/** Schema and demo data, once, before any worker serves: N processes syncing at once would race on the catalog. */
async function prepareDatabase(sequelize: Sequelize, models: Models): Promise<void> {
  await verifyConnection(sequelize, process.env.DATABASE_URL);
  if (workers > 1 && sequelize.getDialect() === 'sqlite') sqliteWithWorkers();
  await sequelize.sync();
  await upgradeSchema(sequelize);
  if (process.env.SEED !== '0') await seedIfEmpty(models);
}

function sqliteWithWorkers(): void {
  if (process.env.DATABASE_URL === ':memory:' || process.env.DATABASE_URL === 'sqlite::memory:') {
    console.error('MURAL_WORKERS > 1 with an in-memory SQLite database: each worker would have a database of its own. Use a file, PostgreSQL or MySQL.');
    process.exit(1);
  }
  console.warn('MURAL_WORKERS > 1 on SQLite: the workers share the file, but SQLite has one writer at a time; workers pay off on PostgreSQL or MySQL.');
}

function serve(): void {
  app.get('/health', muralHealth({ check: () => sequelize.query('SELECT 1') }));
  // limits checked every second, not Node's 30 s (limitSlowClients)
  const server = createServer({ connectionsCheckingInterval: 1000 }, app);
  server.once('error', failStartup);
  server.listen(port, () => {
    server.off('error', failStartup);
    const { port } = server.address() as AddressInfo;
    if (cluster.isPrimary) announce(port, '');
  });
  // a client gets 10 s to send its headers and 30 s for its whole request, not Node's 60 s and 5 minutes
  limitSlowClients(server);
  // SIGTERM/SIGINT: finish in-flight requests, then close the pool and exit
  gracefulShutdown(server, { close: () => sequelize.close() });
  // URLs and headers too long for Node get a JSON:API 431 rather than a bare status line
  answerClientErrors(server);
}

function announce(port: number, workers: string): void {
  console.log(`Employee directory: ${url(port)}${workers}`);
  // the router serves its API explorer unless NODE_ENV is production
  if (process.env.NODE_ENV !== 'production') console.log(`API explorer: http://localhost:${port}/api/v1/explorer`);
}
