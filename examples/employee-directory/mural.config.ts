import type { Sequelize } from 'sequelize';
import { defineConfig } from 'mural-cli';
import { API_INFO } from './api-info.ts';
import { connect } from './db/connection.ts';
import { verifyConnection } from './db/database-url.ts';
import { defineModels } from './db/models/index.ts';
import { seedIfEmpty } from './db/seed.ts';
import { defineResources } from './resources/index.ts';

let sequelize: Sequelize | undefined;

/**
 * `npx mural COMMAND --config examples/employee-directory/mural.config.ts`:
 * the directory's Resources on DATABASE_URL (as `npm start` uses it), created
 * and seeded on first use like the server does.
 */
export default defineConfig({
  schemaPath: 'schema.json',
  openapi: { path: 'openapi.json', info: API_INFO, operations: true },
  generator: {
    resources: 'resources',
    models: 'db/models',
    controllers: 'controllers',
    tests: '../../test/examples/employee-directory/generated',
    routes: 'routes.ts',
  },
  async resources() {
    sequelize = connect(process.env.DATABASE_URL);
    const models = defineModels(sequelize);
    const resources = defineResources(models);
    // a database that cannot be reached is named as DATABASE_URL, not as the driver's error from sync()
    await verifyConnection(sequelize, process.env.DATABASE_URL);
    await sequelize.sync();
    if (process.env.SEED !== '0') await seedIfEmpty(models);
    return Object.values(resources);
  },
  async close() {
    const open = sequelize;
    sequelize = undefined;
    await open?.close();
  },
});
