import type { MuralPlugin } from '../../commands/host/plugin.ts';
import { databaseTemplate, modelTemplate } from '../../templates/model.ts';

/**
 * The relational adapter, and the generator's model and database templates.
 * The adapter (and with it Sequelize) loads only when something asks for it:
 * Resources import it themselves, and most commands never do.
 */
export const sequelizePlugin: MuralPlugin = {
  name: 'sequelize',
  setup(host) {
    host.adapter('sequelize', { load: async () => (await import('./index.ts')).SequelizeAdapter });
    host.template('model', modelTemplate);
    host.template('database', databaseTemplate);
  },
};
