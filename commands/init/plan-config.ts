import { existsSync, readFileSync, statSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { codeStyle } from '../host/code-style.ts';
import { CommandError } from '../host/command.ts';
import { formatModuleReference, parseModuleReference, type ModuleReference } from '../host/module-reference.ts';
import { count } from '../host/plural.ts';
import type { GeneratorPaths } from '../host/project-config.ts';
import { baseResourceOf, commonNamespace, findResourceClasses, resourceLocations, type ResourceClassInfo } from './find-resources.ts';
import { sequelizeExports } from './find-sequelize.ts';
import { generatorDefaults } from './generator-defaults.ts';
import type { Prompter } from './prompter.ts';
import type { ConfigPlan } from './render-config.ts';
import type { ProjectScan } from './scan-project.ts';
import { stripComments } from './strip-comments.ts';

/** The command line of `mural init`, as commander hands it over. */
export interface InitFlags {
  sequelize?: string;
  resources?: string[];
  typescript?: boolean;
  javascript?: boolean;
  baseResource?: string;
  resourcesDir?: string;
  modelsDir?: string;
  controllersDir?: string;
  testsDir?: string;
  routes?: string;
}

export interface Project {
  root: string;
  scan: ProjectScan;
  packageIsModule: boolean;
  hasTsconfig: boolean;
}

const TS_IMPORT = /(?:from\s*|import\s*\(\s*|require\(\s*)['"]\.{1,2}\/[^'"]+\.[mc]?ts['"]/;

/** A path given on the command line, relative to the root with `/`; it must exist. */
function existingPath(root: string, given: string, flag: string): string {
  const absolute = resolve(root, given);
  if (!existsSync(absolute)) throw new CommandError(`${flag} ${given}: no such file or directory`, 2);
  return relative(root, absolute).split(sep).join('/') || '.';
}

function projectPath(root: string, given: string): string {
  return relative(root, resolve(root, given)).split(sep).join('/') || '.';
}

/** `path#export` from a flag or an answer; without `#`, the one export detection finds in that file. */
function referenceFromFlag(project: Project, text: string, flag: string, exportsOf: (code: string) => string[]): ModuleReference {
  const given = parseModuleReference(text, flag);
  const path = existingPath(project.root, given.path, flag);
  if (text.includes('#')) return { path, exportName: given.exportName };
  const full = resolve(project.root, path);
  const found = statSync(full).isFile() ? exportsOf(stripComments(readFileSync(full, 'utf8'))) : [];
  if (found.length === 1) return { path, exportName: found[0]! };
  const what = found.length === 0 ? 'no export to use' : `several exports (${found.join(', ')})`;
  throw new CommandError(`${flag} ${path}: found ${what}; name it: ${flag} ${path}#EXPORT`, 2);
}

export function chooseLanguage(project: Project, flags: InitFlags): 'typescript' | 'javascript' {
  if (flags.typescript && flags.javascript) throw new CommandError('Pass --typescript or --javascript, not both', 2);
  if (flags.typescript) return 'typescript';
  if (flags.javascript) return 'javascript';
  const typescriptSources = project.scan.files.some((f) => /\.[mc]?ts$/.test(f.path));
  return typescriptSources || (project.scan.files.length === 0 && project.hasTsconfig) ? 'typescript' : 'javascript';
}

/**
 * JavaScript's module format: what most of the sources are, `.mjs` and `.cjs`
 * files counted as such and `.js` files as package.json makes them; a tie
 * goes to package.json.
 */
export function chooseModuleFormat(project: Project): 'esm' | 'commonjs' {
  const packageFormat = project.packageIsModule ? 'esm' : 'commonjs';
  let esm = 0;
  let commonjs = 0;
  for (const { path } of project.scan.files) {
    const format = path.endsWith('.mjs') ? 'esm' : path.endsWith('.cjs') ? 'commonjs' : path.endsWith('.js') ? packageFormat : undefined;
    if (format === 'esm') esm++;
    if (format === 'commonjs') commonjs++;
  }
  return esm === commonjs ? packageFormat : esm > commonjs ? 'esm' : 'commonjs';
}

/** `.ts` when the project's TypeScript already imports with `.ts`; `.js`, which `tsc` accepts everywhere, otherwise. */
export function chooseImportExtension(project: Project): '.ts' | '.js' {
  return project.scan.files.some((f) => /\.[mc]?ts$/.test(f.path) && TS_IMPORT.test(f.code)) ? '.ts' : '.js';
}

export async function chooseSequelize(project: Project, flags: InitFlags, ask?: Prompter): Promise<ModuleReference> {
  if (flags.sequelize) return referenceFromFlag(project, flags.sequelize, '--sequelize', sequelizeExports);
  const candidates = project.scan.files.flatMap((f) => sequelizeExports(f.code).map((exportName) => ({ path: f.path, exportName })));
  if (candidates.length === 1) return candidates[0]!;
  const labels = candidates.map(formatModuleReference);
  if (candidates.length > 1) {
    if (!ask) throw new CommandError(`Found ${candidates.length} Sequelize instances (${labels.join(', ')}); choose one with --sequelize PATH#EXPORT`, 2);
    return candidates[labels.indexOf(await ask.select('Which Sequelize instance does the application use?', labels))]!;
  }
  const looked = `looked for an exported new Sequelize(…) in ${count(project.scan.files.length, 'file')}`;
  if (!ask) throw new CommandError(`No module exporting a Sequelize instance found (${looked}); pass --sequelize PATH#EXPORT`, 2);
  const isFile = (path: string) => path !== '' && existsSync(resolve(project.root, path)) && statSync(resolve(project.root, path)).isFile();
  const answer = await ask.input('Module exporting the Sequelize instance (path#export):', {
    validate: (value) => isFile(value.split('#')[0]!) || 'An existing file, e.g. src/db.ts#sequelize',
  });
  return referenceFromFlag(project, answer, '--sequelize', sequelizeExports);
}

export async function chooseResources(project: Project, flags: InitFlags, ask?: Prompter): Promise<{ locations: string[]; classes: ResourceClassInfo[] }> {
  const classes = findResourceClasses(project.scan.files);
  if (flags.resources?.length) {
    const locations = flags.resources.map((p) => existingPath(project.root, p, '--resources'));
    // importing every module of the project would run its server and its scripts
    if (locations.includes('.')) throw new CommandError('--resources .: not the whole project; name the Resource modules or their directory', 2);
    return { locations, classes };
  }
  const locations = resourceLocations(classes, project.scan.files);
  if (ask && locations.length > 1) return { locations: await ask.checkbox('Load Resources from:', locations), classes };
  return { locations, classes };
}

export function chooseBaseResource(project: Project, flags: InitFlags, classes: readonly ResourceClassInfo[]): ModuleReference | undefined {
  const abstractExports = (file: string) => classes.filter((c) => c.abstract && c.file === file).map((c) => c.exportName);
  if (flags.baseResource) return referenceFromFlag(project, flags.baseResource, '--base-resource', () => abstractExports(projectPath(project.root, flags.baseResource!)));
  const base = baseResourceOf(classes);
  return base && { path: base.file, exportName: base.exportName };
}

const GENERATOR_FLAGS: Array<[keyof GeneratorPaths, keyof InitFlags, string]> = [
  ['resources', 'resourcesDir', 'Resources'],
  ['models', 'modelsDir', 'Models'],
  ['controllers', 'controllersDir', 'Controllers'],
  ['tests', 'testsDir', 'Tests'],
  ['routes', 'routes', 'Routes file'],
];

/** Where `generate resource` writes: flags, else detected defaults, which a person at the terminal may change. */
export async function chooseGeneratorPaths(project: Project, defaults: GeneratorPaths, flags: InitFlags, ask?: Prompter): Promise<GeneratorPaths> {
  const paths = { ...defaults };
  for (const [key, flag] of GENERATOR_FLAGS) if (typeof flags[flag] === 'string') paths[key] = projectPath(project.root, flags[flag]);
  if (!ask || GENERATOR_FLAGS.some(([, flag]) => flags[flag] !== undefined)) return paths;
  const [resources, models, controllers, tests, routes] = GENERATOR_FLAGS.map(([key]) => paths[key]);
  if (await ask.confirm(`mural generate writes to ${resources}, ${models}, ${controllers}, ${tests} and ${routes}. Keep?`)) return paths;
  for (const [key, , label] of GENERATOR_FLAGS) paths[key] = projectPath(project.root, await ask.input(`${label}:`, { default: paths[key] }));
  return paths;
}

/** Every decision, from flags first, then detection, then (in a terminal) answers. */
export async function planConfig(project: Project, flags: InitFlags, ask?: Prompter): Promise<{ plan: ConfigPlan; classes: ResourceClassInfo[] }> {
  const language = chooseLanguage(project, flags);
  const sequelize = await chooseSequelize(project, flags, ask);
  const { locations, classes } = await chooseResources(project, flags, ask);
  const moduleFormat = chooseModuleFormat(project);
  const { extension } = codeStyle(language, moduleFormat, project.packageIsModule);
  const defaults = generatorDefaults(project.root, project.scan.files, { sequelizeFile: sequelize.path, resourceLocations: locations, extension });
  const paths = await chooseGeneratorPaths(project, defaults, flags, ask);
  const covered = locations.some((l) => paths.resources === l || paths.resources.startsWith(`${l}/`));
  const baseResource = chooseBaseResource(project, flags, classes);
  const plan: ConfigPlan = {
    language,
    moduleFormat,
    packageIsModule: project.packageIsModule,
    sequelize,
    // Resources `generate` writes are loaded too, from the first one on
    resources: covered ? locations : [...locations, paths.resources],
    generator: {
      language,
      // written only where it differs from what package.json makes .js files
      ...(language === 'javascript' && moduleFormat !== (project.packageIsModule ? 'esm' : 'commonjs') ? { moduleFormat } : {}),
      importExtension: chooseImportExtension(project),
      ...(baseResource ? { baseResource: formatModuleReference(baseResource) } : {}),
      // without a base to inherit it from, generated Resources set the namespace the others set
      ...(!baseResource && commonNamespace(classes) !== undefined ? { endpointNamespace: commonNamespace(classes) } : {}),
      ...paths,
    },
  };
  return { plan, classes };
}
