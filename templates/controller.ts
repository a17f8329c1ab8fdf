import type { TemplateContext } from '../commands/host/template.ts';

/** app/controllers/<name>-controller.ts: an Express router serving the Resource's actions. */
export function controllerTemplate(c: TemplateContext): string {
  const name = `${c.className.charAt(0).toLowerCase()}${c.className.slice(1)}Controller`;
  return `import { muralRouter } from 'mural/express';
import { ${c.resourceClass} } from '${c.importPath('controller', 'resource')}';

/** Serves ${c.actions.join(', ')} for ${c.type}. */
export const ${name} = muralRouter({ resources: [${c.resourceClass}] });
`;
}

/** app/routes.ts, written once; \`mural generate\` adds lines after its markers. */
export function routesTemplate(): string {
  return `import { Router } from 'express';
// mural:imports

export const routes = Router();
// mural:routes
`;
}

/** The two lines registering a controller in the routes file. */
export function routeLines(c: TemplateContext): { importLine: string; useLine: string } {
  const name = `${c.className.charAt(0).toLowerCase()}${c.className.slice(1)}Controller`;
  return {
    importLine: `import { ${name} } from '${c.importPath('routes', 'controller')}';`,
    useLine: `routes.use(${name});`,
  };
}
