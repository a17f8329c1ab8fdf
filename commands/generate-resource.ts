import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { ALL_ACTIONS } from '../core/index.ts';
import { TEST_DATABASE_VARIABLE } from '../templates/resource-test.ts';
import { appShape, type AppShape } from './generate/app-shape.ts';
import { askMissing } from './generate/ask.ts';
import { typesHelp } from './generate/attribute-types.ts';
import { generateRequest } from './generate/generate-request.ts';
import { testCommand } from './generate/test-command.ts';
import { CommandError, type CommandContext, type CommandDefinition } from './host/command.ts';
import type { TemplateContext } from './host/template.ts';
import { templateContext } from './template-context.ts';

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

function writeRoute(context: CommandContext, template: TemplateContext): void {
  const { color, io } = context;
  const routes = relative(context.root, template.paths.routes);
  const lines = render(context, 'route', template);
  const registered = registerRoute(template.paths.routes, lines, render(context, 'routes', template));
  if (registered === 'updated') io.out(`${color.green('update')} ${routes}`);
  if (registered === 'no-markers') {
    io.out(`${color.yellow('note')} ${routes} has no // mural:imports and // mural:routes markers; register the controller there yourself:`);
    io.out(lines.split('\n').map((line) => `  ${line}`).join('\n'));
  }
}

/** What the user should know after the files are written: the base found for them, and how to run the test. */
function reportNext(context: CommandContext, template: TemplateContext, shape: AppShape): void {
  const { color, io } = context;
  if (shape.baseDetected && shape.baseResource) {
    const { path, exportName } = shape.baseResource;
    io.out(`${color.yellow('note')} ${template.resourceClass} extends ${exportName === 'default' ? 'the default export' : exportName} of ${path}, the application's base Resource; the config's generator.baseResource can name another`);
  }
  const run = testCommand(context.root, template);
  io.out(`\nRun its test (on an in-memory SQLite database, or the one ${TEST_DATABASE_VARIABLE} names):\n  ${color.cyan(run.command)}`);
  for (const note of run.notes) io.out(`${color.yellow('note')} ${note}`);
}

export const generateResource: CommandDefinition = {
  name: 'generate resource',
  description: 'Write a Resource with its model, controller, route registration and test',
  arguments: ['[name]', '[attributes...]'],
  options: [
    { flags: '-a, --actions <actions...>', description: `actions to serve (default: all): ${ALL_ACTIONS.join(' ')}` },
    { flags: '--force', description: 'overwrite existing files' },
  ],
  helpText: typesHelp,
  examples: ['mural generate resource Employee first_name:string age:integer', 'mural generate resource Team name:string -a index show'],
  async run(context, [name, ...rest], options) {
    let answers = { name, specs: rest.flat(), actions: options.actions as string[] | undefined };
    if (!name) {
      if (!context.io.interactive) throw new CommandError('Give the resource name: mural generate resource NAME [attr:type …]', 2);
      answers = await askMissing(answers);
    }
    const request = generateRequest(answers.name!, answers.specs, answers.actions ?? []);
    const shape = appShape(context);
    const template = templateContext(context, request, shape);
    const files = plannedFiles(context, template);
    const existing = files.slice(0, 4).filter(([path]) => existsSync(path)).map(([path]) => relative(context.root, path));
    if (existing.length > 0 && !options.force) throw new CommandError(`Not overwriting ${existing.join(', ')}; use --force`);
    for (const [path, content] of files) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
      context.io.out(`${context.color.green('create')} ${relative(context.root, path)}`);
    }
    writeRoute(context, template);
    reportNext(context, template, shape);
    return 0;
  },
};
