import type { TemplateContext } from '../commands/host/template.ts';

function controllerName(c: TemplateContext): string {
  return `${c.className.charAt(0).toLowerCase()}${c.className.slice(1)}Controller`;
}

/** app/controllers/<name>-controller.ts: an Express router serving the Resource's actions. */
export function controllerTemplate(c: TemplateContext): string {
  const { code } = c;
  return `${code.import(['muralRouter'], 'mural/express')}
${code.import([c.resourceClass], c.importPath('controller', 'resource'))}

/** Serves ${c.actions.join(', ')} for ${c.type}. */
${code.export}const ${controllerName(c)} = muralRouter({ resources: [${c.resourceClass}] });
${code.exports([controllerName(c)])}`;
}

/**
 * app/routes.ts, written once; \`mural generate\` adds lines after its markers.
 * In CommonJS \`module.exports\` comes before the routes marker, so the
 * \`routes.use\` lines added below it stay after the export.
 */
export function routesTemplate(c: TemplateContext): string {
  const { code } = c;
  return `${code.import(['Router'], 'express')}
// mural:imports

${code.export}const routes = Router();${code.exports(['routes']).trimEnd()}
// mural:routes
`;
}

/** The two lines registering a controller in the routes file. */
export function routeLines(c: TemplateContext): { importLine: string; useLine: string } {
  return {
    importLine: c.code.import([controllerName(c)], c.importPath('routes', 'controller')),
    useLine: `routes.use(${controllerName(c)});`,
  };
}
