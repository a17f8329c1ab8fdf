import type { CommandDefinition } from './host/command.ts';
import { diagram } from './diagram.ts';
import { generateResource } from './generate-resource.ts';
import { guards } from './guards.ts';
import { init } from './init.ts';
import { openapi } from './openapi.ts';
import { query } from './query.ts';
import { schemaCheck } from './schema-check.ts';
import { schemaExport } from './schema-export.ts';

export { defineConfig, type ProjectConfig, type GeneratorPaths, type GeneratorSettings, type GeneratorStyle } from './host/project-config.ts';
export { importResources, resourcesFrom } from './host/import-resources.ts';
export type { AdapterLoader, MuralPlugin, PluginHost } from './host/plugin.ts';
export type { CommandColor, CommandDefinition, CommandContext, CommandOption, CommandIO } from './host/command.ts';
export { CommandError } from './host/command.ts';
export type { Template, TemplateContext, TemplatePaths } from './host/template.ts';
export type { CodeStyle } from './host/code-style.ts';
export { registeredAdapter, runCli, type CliOptions } from './host/run-cli.ts';
export { expressPlugin } from '../plugins/express/plugin.ts';
export { sequelizePlugin } from '../plugins/sequelize/plugin.ts';
export { typescriptPlugin } from '../plugins/typescript/plugin.ts';

/** The commands every project has; plugins add the rest. */
export const coreCommands: CommandDefinition[] = [init, schemaExport, schemaCheck, openapi, diagram, guards, query, generateResource];
