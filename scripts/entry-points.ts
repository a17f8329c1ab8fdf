/** The package's public entry points: what `exports` in package.json maps, and the build compiles. */
export interface EntryPoint {
  /** The subpath in `exports`: `.` is `mural`, `./express` is `mural/express`. */
  name: string;
  /** The source module that defines the entry point's exports. */
  source: string;
  /** The file name of its ES module face in dist/esm. */
  wrapper: string;
}

export const ENTRY_POINTS: readonly EntryPoint[] = [
  { name: '.', source: 'core/index.ts', wrapper: 'index' },
  { name: './express', source: 'plugins/express/index.ts', wrapper: 'express' },
  { name: './sequelize', source: 'plugins/sequelize/index.ts', wrapper: 'sequelize' },
  { name: './typescript', source: 'plugins/typescript/index.ts', wrapper: 'typescript' },
  { name: './cli', source: 'commands/index.ts', wrapper: 'cli' },
];

/** The CLI's implementation, which bin/mural.js loads: compiled with the entry points. */
export const EXECUTABLE_SOURCE = 'bin/main.ts';

/** Every source the entry points reach: the runtime, the plugins, the CLI and its templates. */
export const SOURCE_ROOTS: readonly string[] = ['core', 'plugins', 'commands', 'templates', 'bin/main.ts'];
