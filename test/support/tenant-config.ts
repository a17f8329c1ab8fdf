import { Sequelize } from 'sequelize';
import { defineConfig } from '../../commands/index.ts';
import { defineTenantModels, defineTenantResources, seedTenants } from './tenant-api.ts';

let sequelize: Sequelize | undefined;

/** `mural … --config test/support/tenant-config.ts`: the tenant API (tenant-api.ts) on a fresh in-memory database per command. */
export default defineConfig({
  async resources() {
    sequelize = new Sequelize({ dialect: 'sqlite', storage: ':memory:', logging: false });
    const models = defineTenantModels(sequelize);
    await sequelize.sync();
    await seedTenants(models);
    return Object.values(defineTenantResources(models));
  },
  async close() {
    await sequelize?.close();
    sequelize = undefined;
  },
});
