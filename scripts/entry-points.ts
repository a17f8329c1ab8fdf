/**
 * The packages this repository builds and their public entry points: what
 * each manifest's `exports` maps (packages/<name>/package.json) and what the
 * build compiles.
 *
 * Two packages, the field's convention (`drizzle-orm` and `drizzle-kit`,
 * `@prisma/client` and `prisma`): the runtime an app serves with, which has
 * no dependency beyond its peers, and the CLI its developers install as a
 * dev dependency, which brings the toolchain (commander, prompts, tsx,
 * json-schema-to-typescript). The CLI loads the runtime by its package name,
 * so an app's Resources and the CLI share one instance of it.
 */
export type PackageName = 'mural' | 'mural-cli';

export interface EntryPoint {
  /** The package that ships it. */
  package: PackageName;
  /** The subpath in that package's `exports`: `.` is the package itself, `./express` is `mural/express`. */
  name: string;
  /** The source module that defines the entry point's exports. */
  source: string;
  /** The file name of its ES module face in the package's esm/ folder. */
  wrapper: string;
}

export const ENTRY_POINTS: readonly EntryPoint[] = [
  { package: 'mural', name: '.', source: 'core/index.ts', wrapper: 'index' },
  { package: 'mural', name: './express', source: 'plugins/express/index.ts', wrapper: 'express' },
  { package: 'mural', name: './sequelize', source: 'plugins/sequelize/index.ts', wrapper: 'sequelize' },
  { package: 'mural', name: './typescript', source: 'plugins/typescript/index.ts', wrapper: 'typescript' },
  { package: 'mural-cli', name: '.', source: 'commands/index.ts', wrapper: 'index' },
];

/** `mural/express`, `mural-cli`: how code imports an entry point. */
export function specifierOf(entry: EntryPoint): string {
  return entry.name === '.' ? entry.package : `${entry.package}/${entry.name.slice(2)}`;
}

export function entryPointsOf(name: PackageName): EntryPoint[] {
  return ENTRY_POINTS.filter((entry) => entry.package === name);
}

/** The CLI's implementation, which bin/mural.js loads: compiled with the CLI's entry point. */
export const EXECUTABLE_SOURCE = 'bin/main.ts';

/** Every source the entry points reach: the runtime, the plugins, the CLI and its templates. */
export const SOURCE_ROOTS: readonly string[] = ['core', 'plugins', 'commands', 'templates', 'bin/main.ts'];

/**
 * The CLI's side of each plugin (`{ name, setup(host) }`: commands, generator
 * templates) lives beside the plugin's runtime code but ships in the CLI.
 */
export const CLI_PLUGIN_FILE = /^plugins\/[^/]+\/plugin\.ts$/;

/**
 * Runtime modules the CLI compiles in rather than importing from `mural`:
 * pure functions with no state and no classes, whose copy cannot drift from
 * the app's instance. Anything else the CLI uses from the runtime comes
 * through a public entry point.
 */
export const CLI_SHARED_PURE_MODULES: readonly string[] = ['core/resource/naming.ts', 'core/did-you-mean.ts'];

/** Which package ships a source file (repository-relative, `/`-separated). */
export function packageOfSource(file: string): PackageName {
  if (file.startsWith('core/')) return 'mural';
  if (file.startsWith('plugins/')) return CLI_PLUGIN_FILE.test(file) ? 'mural-cli' : 'mural';
  return 'mural-cli';
}
