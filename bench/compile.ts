/**
 * `npm run bench` measures Mural as users run it: compiled, from dist/, in
 * plain Node. Run through tsx, every function of the sources carries a
 * `__name` wrapper and every stack trace (Sequelize takes one per query) is
 * mapped back through source maps, which moved the ratios by up to 7%.
 *
 * This bundles a bench script (its baselines, the example application and
 * the fixtures) into one ES module in node_modules/.cache, where Mural's
 * imports, whether `mural/…` or a relative path to one of its entry points,
 * load the compiled packages (dist/mural and dist/mural-cli unless told
 * otherwise): `npm run build` must have run first. Each module keeps its own
 * `import.meta.url`, so paths it resolves beside itself still find the
 * checkout's files.
 *
 *   tsx bench/compile.ts bench/run.ts         prints the compiled module's path
 *   tsx bench/compile.ts bench/run.ts --run   and runs it (`npm run bench`)
 *   tsx bench/compile.ts bench/profile-request.ts --enable-source-maps --run docs/flame-graph.svg
 *                                             Node flags before --run, the script's arguments after
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { ENTRY_POINTS, specifierOf, type PackageName } from '../scripts/entry-points.ts';
import { SERVER_NODE_FLAGS } from '../scripts/server-node-flags.ts';

const root = resolve(import.meta.dirname, '..');
const MURAL_SOURCES = /^(core|plugins|commands)\//;

/** Where each package was built: its directory. */
export type BuiltPackageDirectories = Record<PackageName, string>;

const DEFAULT_BUILD: BuiltPackageDirectories = { mural: join(root, 'dist', 'mural'), 'mural-cli': join(root, 'dist', 'mural-cli') };

/** `mural`, `mural/express`, `mural-cli` and `../core/index.ts`, … → the compiled ES module of that entry point. */
function compiledEntry(specifier: string, resolveDir: string, built: BuiltPackageDirectories): string | undefined {
  const entry = ENTRY_POINTS.find((e) => specifierOf(e) === specifier)
    ?? ENTRY_POINTS.find((e) => specifier.startsWith('.') && e.source === relative(root, resolve(resolveDir, specifier)));
  return entry && join(built[entry.package], 'esm', `${entry.wrapper}.js`);
}

const compiledMural = (built: BuiltPackageDirectories): Plugin => ({
  name: 'compiled-mural',
  setup(bundle) {
    bundle.onResolve({ filter: /^(mural(-cli)?(\/.*)?|\.{1,2}\/.*\.ts)$/ }, (args) => {
      const compiled = compiledEntry(args.path, args.resolveDir, built);
      if (compiled) return { path: compiled, external: true };
      const file = relative(root, resolve(args.resolveDir, args.path));
      if (args.path.startsWith('mural') || MURAL_SOURCES.test(file)) {
        return { errors: [{ text: `${args.importer} imports ${args.path}: the bench may use Mural's public entry points only` }] };
      }
      return undefined;
    });
    // a module's own location, not the bundle's
    bundle.onLoad({ filter: /\.ts$/ }, (args) => {
      const url = JSON.stringify(pathToFileURL(args.path).href);
      const contents = readFileSync(args.path, 'utf8')
        .replaceAll('import.meta.url', url)
        .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)));
      return { contents, loader: 'ts' };
    });
  },
});

export interface CompileOptions {
  /** The packages to load (default: dist/mural and dist/mural-cli, what `npm run build` writes). */
  built?: BuiltPackageDirectories;
  /** Where the compiled module goes (default: node_modules/.cache/mural-bench/<script>.mjs). */
  outfile?: string;
}

export async function compileBench(script: string, options: CompileOptions = {}): Promise<string> {
  const outfile = options.outfile ?? join(root, 'node_modules', '.cache', 'mural-bench', `${basename(script, '.ts')}.mjs`);
  await build({
    entryPoints: [script],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.17',
    packages: 'external',
    plugins: [compiledMural(options.built ?? DEFAULT_BUILD)],
    // the rejection carries the messages
    logLevel: 'silent',
  });
  return outfile;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const compiled = await compileBench(resolve(process.argv[2] ?? 'bench/run.ts'));
  if (!process.argv.includes('--run')) console.log(compiled);
  else process.exitCode = spawnSync(process.execPath, runArguments(compiled, process.argv.slice(3)), { stdio: 'inherit' }).status ?? 1;
}

/**
 * Node's arguments for running `compiled` with `--run`: the example
 * server's flags, as `npm start` runs it (SERVER_NODE_FLAGS), the bench's
 * own, the flags given before `--run` (`--enable-source-maps` for
 * profiles), the module, and what follows `--run` (profile-request.ts
 * takes the flame graph's path).
 */
export function runArguments(compiled: string, args: readonly string[]): string[] {
  const run = args.indexOf('--run');
  const flags = args.slice(0, run).filter((arg) => arg.startsWith('--'));
  return [...SERVER_NODE_FLAGS, '--expose-gc', ...flags, compiled, ...args.slice(run + 1)];
}
