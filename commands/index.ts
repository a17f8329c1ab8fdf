import type { CommandDefinition } from './host/command.ts';
import { generateResource } from './generate-resource.ts';
import { guards } from './guards.ts';
import { query } from './query.ts';
import { schemaCheck } from './schema-check.ts';
import { schemaExport } from './schema-export.ts';

export { defineConfig, type ProjectConfig, type GeneratorPaths } from './host/project-config.ts';
export type { MuralPlugin, PluginHost } from './host/plugin.ts';
export type { CommandDefinition, CommandContext, CommandOption, CommandIO } from './host/command.ts';
export { CommandError } from './host/command.ts';
export type { Template, TemplateContext } from './host/template.ts';
export { runCli, type CliOptions } from './host/run-cli.ts';

/** The commands every project has; plugins add the rest. */
export const coreCommands: CommandDefinition[] = [schemaExport, schemaCheck, guards, query, generateResource];
