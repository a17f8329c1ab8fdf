import type { TemplateContext } from '../commands/host/template.ts';

/** app/resources/<name>-resource.ts */
export function resourceTemplate(c: TemplateContext): string {
  const attributes = c.attributes.map((a) => `    this.attribute('${a.name}', '${a.type}');`).join('\n');
  return `import { Resource } from 'mural';
import { SequelizeAdapter } from 'mural/sequelize';
import { ${c.className} } from '${c.importPath('resource', 'model')}';

export class ${c.resourceClass} extends Resource {
  static {
    this.adapter = SequelizeAdapter;
    this.model = ${c.className};
    this.type = '${c.type}';
    this.primaryEndpoint('/${c.type}', [${c.actions.map((a) => `'${a}'`).join(', ')}]);
${attributes}
  }
}
`;
}
