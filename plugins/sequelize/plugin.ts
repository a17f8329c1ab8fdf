import type { MuralPlugin } from '../../commands/host/plugin.ts';
import { databaseTemplate, modelTemplate } from '../../templates/model.ts';
import { SequelizeAdapter } from './sequelize-adapter.ts';

/** The relational adapter, and the generator's model and database templates. */
export const sequelizePlugin: MuralPlugin = {
  name: 'sequelize',
  setup(host) {
    host.adapter('sequelize', SequelizeAdapter);
    host.template('model', modelTemplate);
    host.template('database', databaseTemplate);
  },
};
