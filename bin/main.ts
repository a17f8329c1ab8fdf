import { coreCommands, runCli, type CliOptions } from '../commands/index.ts';
import { expressPlugin } from '../plugins/express/plugin.ts';
import { sequelizePlugin } from '../plugins/sequelize/plugin.ts';
import { typescriptPlugin } from '../plugins/typescript/plugin.ts';
import { resourceTemplate } from '../templates/resource.ts';
import { resourceTestTemplate } from '../templates/resource-test.ts';

/** The built-in wiring of `mural`: core commands and templates, and the default plugins. */
export const defaults: Omit<CliOptions, 'cwd' | 'io'> = {
  coreCommands,
  coreTemplates: { resource: resourceTemplate, test: resourceTestTemplate },
  defaultPlugins: [sequelizePlugin, expressPlugin, typescriptPlugin],
};

export function main(argv: string[], options: Partial<CliOptions> = {}): Promise<number> {
  return runCli(argv, { ...defaults, ...options });
}
