import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { ALL_ACTIONS, Types } from '../core/index.ts';
import { typeFromClassName } from '../core/resource/naming.ts';
import { CommandError, type CommandContext, type CommandDefinition } from './host/command.ts';
import { DEFAULT_GENERATOR_PATHS } from './host/project-config.ts';
import type { TemplateContext, TemplatePaths } from './host/template.ts';

interface Request {
  name: string;
  attributes: Array<{ name: string; type: string }>;
  actions: string[];
}

function parseRequest(name: string, specs: string[], actions: string[]): Request {
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
  const { input, checkbox } = await import('@inquirer/prompts');
  const chosenName = name ?? (await input({ message: 'Resource name (e.g. Employee):', validate: (v) => /^[A-Za-z][A-Za-z0-9]*$/.test(v) || 'Letters and digits' }));
  const chosenSpecs = specs.length > 0 ? specs : (await input({ message: 'Attributes as name:type, space separated:' })).split(/\s+/).filter(Boolean);
  const chosenActions = actions ?? (await checkbox({ message: 'Actions:', choices: ALL_ACTIONS.map((a) => ({ value: a, checked: true })) }));
  return [chosenName, chosenSpecs, chosenActions];
}

function templateContext(context: CommandContext, request: Request): TemplateContext {
  const paths = { ...DEFAULT_GENERATOR_PATHS, ...context.config.generator };
  const type = typeFromClassName(request.name);
  const fileStem = request.name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
  const at = (dir: string, file: string) => resolve(context.root, dir, file);
  const files: TemplatePaths = {
    resource: at(paths.resources, `${fileStem}-resource.ts`),
    model: at(paths.models, `${fileStem}.ts`),
    controller: at(paths.controllers, `${fileStem}-controller.ts`),
    test: at(paths.tests, `${fileStem}-resource.test.ts`),
    routes: resolve(context.root, paths.routes),
  };
  return {
    className: request.name,
    resourceClass: `${request.name}Resource`,
    type,
    fileStem,
    tableName: type,
    attributes: request.attributes,
    actions: request.actions,
    paths: files,
    importPath(from, to) {
      const path = relative(dirname(files[from]), files[to]).replace(/\\/g, '/');
      return path.startsWith('.') ? path : `./${path}`;
    },
  };
}

function render(context: CommandContext, name: string, template: TemplateContext): string {
  const fn = context.templates.get(name);
  if (!fn) throw new CommandError(`No "${name}" template; is the plugin providing it loaded?`, 2);
  return fn(template);
}

/** Adds the route lines after their markers, once: running the generator twice changes nothing. */
function registerRoute(path: string, lines: string, initial: string): boolean {
  const [importLine, useLine] = lines.split('\n') as [string, string];
  let source = existsSync(path) ? readFileSync(path, 'utf8') : initial;
  const before = source;
  if (!source.includes(importLine)) source = source.replace('// mural:imports', `// mural:imports\n${importLine}`);
  if (!source.includes(useLine)) source = source.replace('// mural:routes', `// mural:routes\n${useLine}`);
  if (source === before && existsSync(path)) return false;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, source);
  return true;
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
    const files: Array<[string, string]> = [
      [template.paths.resource, render(context, 'resource', template)],
      [template.paths.model, render(context, 'model', template)],
      [template.paths.controller, render(context, 'controller', template)],
      [template.paths.test, render(context, 'test', template)],
    ];
    const existing = files.filter(([path]) => existsSync(path)).map(([path]) => relative(context.root, path));
    if (existing.length > 0 && !options.force) throw new CommandError(`Not overwriting ${existing.join(', ')}; use --force`);
    const database = resolve(dirname(template.paths.model), 'db.ts');
    if (!existsSync(database)) files.push([database, render(context, 'database', template)]);
    for (const [path, content] of files) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
      context.io.out(`${context.color.green('create')} ${relative(context.root, path)}`);
    }
    if (registerRoute(template.paths.routes, render(context, 'route', template), render(context, 'routes', template))) {
      context.io.out(`${context.color.green('update')} ${relative(context.root, template.paths.routes)}`);
    }
    return 0;
  },
};
