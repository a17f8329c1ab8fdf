import type { TemplateContext } from '../commands/host/template.ts';

/**
 * app/resources/<name>-resource.ts: extends the application's base Resource
 * when it has one, which then holds the adapter and usually the namespace.
 */
export function resourceTemplate(c: TemplateContext): string {
  const { code, baseResource } = c;
  // a base Resource hands its namespace down; one set here is the one the application's other Resources use
  const namespace = c.endpointNamespace !== undefined ? `    this.endpointNamespace = '${c.endpointNamespace.replace(/['\\]/g, '\\$&')}';\n` : '';
  const attributes = c.attributes.map((a) => `    this.attribute('${a.name}', '${a.type}');`).join('\n');
  const parent = !baseResource ? 'Resource' : baseResource.exportName === 'default' ? 'BaseResource' : baseResource.exportName;
  const parentImports = baseResource
    ? code.import(baseResource.exportName === 'default' ? parent : [parent], c.importPath('resource', 'baseResource'))
    : `${code.import(['Resource'], 'mural')}\n${code.import(['SequelizeAdapter'], 'mural/sequelize')}`;
  return `${parentImports}
${code.import([c.className], c.importPath('resource', 'model'))}

${code.export}class ${c.resourceClass} extends ${parent} {
  static {
${baseResource ? '' : '    this.adapter = SequelizeAdapter;\n'}${namespace}    this.model = ${c.className};
    this.type = '${c.type}';
    this.primaryEndpoint('/${c.type}', [${c.actions.map((a) => `'${a}'`).join(', ')}]);
${attributes}
  }
}
${code.exports([c.resourceClass])}`;
}
