import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { typeFromClassName } from '../core/resource/naming.ts';
import { CommandError, type CommandContext, type CommandDefinition } from './host/command.ts';
import { isModulePackage } from './host/package-type.ts';
import { resourcesBuiltInFunctions, type ResourceClassInfo } from './init/find-resources.ts';
import { planConfig, type InitFlags, type Project } from './init/plan-config.ts';
import { terminalPrompter } from './init/prompter.ts';
import { renderConfig, type ConfigPlan } from './init/render-config.ts';
import { scanProject } from './init/scan-project.ts';

const CONFIG_NAMES = ['mural.config.ts', 'mural.config.js', 'mural.config.mjs', 'mural.config.cjs', 'mural.config.mts', 'mural.config.cts'];

/** An example for `mural query`: a Resource's literal type, or the one its class name gives. */
function queryExample(classes: readonly ResourceClassInfo[]): string {
  const resource = classes.find((c) => !c.abstract);
  return resource ? (resource.type ?? typeFromClassName(resource.name)) : 'RESOURCE';
}

/** Resources only a function of the app can build: the config must call it, and `init` cannot write that call. */
function builtInFunctions(built: ReadonlyArray<{ name: string; file: string }>, fileName: string): string[] {
  if (built.length === 0) return [];
  const named = built.slice(0, 3).map((c) => `${c.name} in ${c.file}`).join(', ');
  const more = built.length > 3 ? ` and ${built.length - 3} more` : '';
  return [
    '',
    `${built.length} Resource${built.length === 1 ? ' is' : 's are'} built inside functions (${named}${more}). Importing a module cannot call them,`,
    `so ${fileName} does not load them: make its \`resources\` call the function and return the classes.`,
  ];
}

function nextSteps(context: CommandContext, plan: ConfigPlan, classes: readonly ResourceClassInfo[], project: Project, fileName: string): string[] {
  const { generator } = plan;
  const commands: Array<[string, string]> = [
    ['guards', 'every guarded attribute, relationship, filter and sort'],
    ['schema export', 'write schema.json; commit it'],
    ['schema check', 'compare the Resources with schema.json (in CI)'],
    [`query ${queryExample(classes)} --per 5`, 'query a Resource in-process'],
    ['generate resource Widget name:string', `a Resource in ${generator.resources}, its model, controller and test`],
  ];
  const width = Math.max(...commands.map(([command]) => command.length)) + 12;
  const lines = ['', 'These commands now work in this application:'];
  for (const [command, what] of commands) lines.push(`  ${context.color.cyan(`npx mural ${command}`.padEnd(width))}${what}`);
  const built = resourcesBuiltInFunctions(project.scan.files);
  lines.push(...builtInFunctions(built, fileName));
  if (!classes.some((c) => !c.abstract) && built.length === 0) {
    lines.push('', `No Resources found yet: those \`generate resource\` writes to ${generator.resources} are loaded from there; until then, commands that load the Resources say where they looked.`);
  }
  if (!existsSync(join(context.root, generator.routes))) {
    lines.push('', `\`generate resource\` registers each controller in ${generator.routes}; mount its \`routes\` in your Express app once: app.use(routes).`);
  }
  if (project.scan.truncated) lines.push('', 'The scan stopped at its limits; if something was missed, pass --sequelize or --resources.');
  return lines;
}

function readProject(root: string): Project {
  if (!existsSync(join(root, 'package.json'))) {
    throw new CommandError(`No package.json in ${root}; run mural init in your application's root directory`, 2);
  }
  return { root, scan: scanProject(root), packageIsModule: isModulePackage(root), hasTsconfig: existsSync(join(root, 'tsconfig.json')) };
}

export const init: CommandDefinition = {
  name: 'init',
  description: "Write mural.config for this Express + Sequelize application: its Sequelize instance, its Resources, and where generate writes",
  withoutConfig: true,
  options: [
    { flags: '--sequelize <path#export>', description: 'the module exporting the Sequelize instance (found in the sources by default)' },
    { flags: '--resources <path>', description: 'a Resource module or a directory of them (repeatable; found in the sources by default)', repeatable: true },
    { flags: '--typescript', description: 'write mural.config.ts and generate TypeScript (default when the sources are TypeScript)' },
    { flags: '--javascript', description: 'write mural.config.js and generate JavaScript in the package\'s module format' },
    { flags: '--base-resource <path#export>', description: 'the abstract Resource generated Resources extend (found by default)' },
    { flags: '--resources-dir <dir>', description: 'where generate writes Resources' },
    { flags: '--models-dir <dir>', description: 'where generate writes models' },
    { flags: '--controllers-dir <dir>', description: 'where generate writes controllers' },
    { flags: '--tests-dir <dir>', description: 'where generate writes tests' },
    { flags: '--routes <file>', description: 'the routes file generate registers controllers in' },
    { flags: '--force', description: 'replace an existing mural.config' },
  ],
  examples: ['mural init', 'mural init --sequelize src/db.ts#sequelize --resources src/resources', 'mural init --javascript --routes src/api-routes.js --force'],
  async run(context, _args, options) {
    const root = context.root;
    const existing = CONFIG_NAMES.filter((name) => existsSync(join(root, name)));
    if (existing.length > 0 && !options.force) throw new CommandError(`${existing.join(', ')} already exists; use --force to replace it`);
    const project = readProject(root);
    const ask = context.io.interactive ? await terminalPrompter() : undefined;
    const { plan, classes } = await planConfig(project, options as InitFlags, ask);
    const { fileName, text } = renderConfig(plan);
    for (const name of existing.filter((n) => n !== fileName)) {
      rmSync(join(root, name));
      context.io.out(`${context.color.red('remove')} ${name}`);
    }
    writeFileSync(join(root, fileName), text);
    context.io.out(`${context.color.green(existing.includes(fileName) ? 'replace' : 'create')} ${fileName}`);
    context.io.out(nextSteps(context, plan, classes, project, fileName).join('\n'));
    return 0;
  },
};
