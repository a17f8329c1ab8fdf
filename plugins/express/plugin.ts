import type { MuralPlugin } from '../../commands/host/plugin.ts';
import { controllerTemplate, routeLines, routesTemplate } from '../../templates/controller.ts';

/** The generator's controller and route templates for Express applications. */
export const expressPlugin: MuralPlugin = {
  name: 'express',
  setup(host) {
    host.template('controller', controllerTemplate);
    host.template('routes', routesTemplate);
    host.template('route', (context) => {
      const { importLine, useLine } = routeLines(context);
      return `${importLine}\n${useLine}`;
    });
  },
};
