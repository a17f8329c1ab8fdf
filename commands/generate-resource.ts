import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { ALL_ACTIONS, Types } from '../core/index.ts';
import { CommandError, type CommandContext, type CommandDefinition } from './host/command.ts';
import type { TemplateContext } from './host/template.ts';
import { templateContext, type GenerateRequest } from './template-context.ts';
import { importAtRunTime } from './host/import-at-run-time.ts';

function parseRequest(name: string, specs: string[], actions: string[]): GenerateRequest {
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(name)) throw new CommandError(`"${name}" is not a valid resource name; use letters and digits, e.g. Employee`, 2);
  const attributes = specs.map((spec) => {
    const [attribute, type] = spec.split(':');
    if (!attribute || !/^[a-z][a-z0-9_]*$/.test(attribute)) throw new CommandError(`"${spec}" is not name:type with a snake_case name`, 2);
    if (!type || !Types[type]) throw new CommandError(`Unknown type "${type ?? ''}" in "${spec}"; valid types: ${Object.keys(Types).join(', ')}`, 2);
    if (type.endsWith('enum') || type.endsWith('enums')) throw new CommandError(`${type} needs an allow list; generate it as string or integer and add allow: by hand`, 2);
    return { name: attribute, type };
  });
  const unknown = actions.filter((a) => !(ALL_ACTIONS as readonly string[]).includes(a));
  if (unknown.length > 0) throw new CommandError(`Unknown action(s) ${unknown.join(', ')}; valid: ${ALL_ACTIONS.join(', ')}`, 2);
  return { name: name.charAt(0).toUpperCase() + name.slice(1), attributes, actions: actions.length > 0 ? actions : [...ALL_ACTIONS] };
}

/** Asks for whatever the command line left out, when a person is at the terminal. */
async function ask(name: string | undefined, specs: string[], actions: string[] | undefined): Promise<[string, string[], string[]]> {
  const { input, checkbox } = await importAtRunTime<typeof import('@inquirer/prompts')>('@inquirer/prompts');
  const chosenName = name ?? (await input({ message: 'Resource name (e.g. Employee):', validate: (v) => /^[A-Za-z][A-Za-z0-9]*$/.test(v) || 'Letters and digits' }));
  const chosenSpecs = specs.length > 0 ? specs : (await input({ message: 'Attributes as name:type, space separated:' })).split(/\s+/).filter(Boolean);
  const chosenActions = actions ?? (await checkbox({ message: 'Actions:', choices: ALL_ACTIONS.map((a) => ({ value: a, checked: true })) }));
  return [chosenName, chosenSpecs, chosenActions];
}

function render(context: CommandContext, name: string, template: TemplateContext): string {
  const fn = context.templates.get(name);
  if (!fn) throw new CommandError(`No "${name}" template; is the plugin providing it loaded?`, 2);
  return fn(template);
}

/**
 * Adds the route lines after their markers, once: running the generator twice
 * changes nothing. A routes file of the application's own, without the
 * markers, is left alone: the user is shown the lines to add.
 */
function registerRoute(path: string, lines: string, initial: string): 'updated' | 'unchanged' | 'no-markers' {
  const [importLine, useLine] = lines.split('\n') as [string, string];
  const exists = existsSync(path);
  let source = exists ? readFileSync(path, 'utf8') : initial;
  const before = source;
  if (!source.includes('// mural:imports') || !source.includes('// mural:routes')) return 'no-markers';
  if (!source.includes(importLine)) source = source.replace('// mural:imports', `// mural:imports\n${importLine}`);
  if (!source.includes(useLine)) source = source.replace('// mural:routes', `// mural:routes\n${useLine}`);
  if (source === before && exists) return 'unchanged';
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, source);
  return 'updated';
}

/** The files to write: the four generated ones, and the `db` module when the application names no Sequelize instance. */
function plannedFiles(context: CommandContext, template: TemplateContext): Array<[string, string]> {
  const files: Array<[string, string]> = [
    [template.paths.resource, render(context, 'resource', template)],
    [template.paths.model, render(context, 'model', template)],
    [template.paths.controller, render(context, 'controller', template)],
    [template.paths.test, render(context, 'test', template)],
  ];
  if (context.config.generator?.sequelize) {
    if (!existsSync(template.paths.database)) {
      throw new CommandError(`generator.sequelize names ${relative(context.root, template.paths.database)}, which does not exist`, 2);
    }
  } else if (!existsSync(template.paths.database)) {
    files.push([template.paths.database, render(context, 'database', template)]);
  }
  return files;
}

export const generateResource: CommandDefinition = {
  name: 'generate resource',
  description: 'Write a Resource with its model, controller, route registration and test',
  arguments: ['[name]', '[attributes...]'],
  options: [
    { flags: '-a, --actions <actions...>', description: `actions to serve (default: all): ${ALL_ACTIONS.join(' ')}` },
    { flags: '--force', description: 'overwrite existing files' },
  ],
  examples: ['mural generate resource Employee first_name:string age:integer', 'mural generate resource Team name:string -a index show'],
  async run(context, [name, ...specs], options) {
    let actions = options.actions as string[] | undefined;
    let args: [string | undefined, string[]] = [name, specs.flat()];
    if (!name) {
      if (!context.io.interactive) throw new CommandError('Give the resource name: mural generate resource NAME [attr:type …]', 2);
      const [n, s, a] = await ask(name, args[1], actions);
      args = [n, s];
      actions = a;
    }
    const template = templateContext(context, parseRequest(args[0]!, args[1], actions ?? []));
    const files = plannedFiles(context, template);
    const existing = files.slice(0, 4).filter(([path]) => existsSync(path)).map(([path]) => relative(context.root, path));
    if (existing.length > 0 && !options.force) throw new CommandError(`Not overwriting ${existing.join(', ')}; use --force`);
    for (const [path, content] of files) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
      context.io.out(`${context.color.green('create')} ${relative(context.root, path)}`);
    }
    const routes = relative(context.root, template.paths.routes);
    const lines = render(context, 'route', template);
    const registered = registerRoute(template.paths.routes, lines, render(context, 'routes', template));
    if (registered === 'updated') context.io.out(`${context.color.green('update')} ${routes}`);
    if (registered === 'no-markers') {
      context.io.out(`${context.color.yellow('note')} ${routes} has no // mural:imports and // mural:routes markers; register the controller there yourself:`);
      context.io.out(lines.split('\n').map((line) => `  ${line}`).join('\n'));
    }
    return 0;
  },
};
