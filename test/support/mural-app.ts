import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { CliResult } from './cli.ts';

const run = promisify(execFile);
const repo = process.cwd();
const BRIDGE = 'mural test package';
/** Node options of a process running application code: TypeScript through tsx, and `require('mural')` answered. */
const NODE_IMPORTS = ['--import', 'tsx', '--import', resolve(repo, 'test/support/mural-package-bridge.ts')];
/** Each entry point of the two packages: its specifier, and its source. */
const ENTRIES: Record<string, string> = {
  mural: 'core/index.ts', 'mural/sequelize': 'plugins/sequelize/index.ts', 'mural/express': 'plugins/express/index.ts',
  'mural/typescript': 'plugins/typescript/index.ts', 'mural-cli': 'commands/index.ts',
};

/**
 * node_modules/mural and node_modules/mural-cli for a throwaway application:
 * the repository's sources, one instance for `import` and `require` alike,
 * as the built packages are. `import` re-exports the source modules the CLI
 * itself runs; `require` hands out those same modules, which
 * mural-package-bridge.ts puts on a global (tsx would otherwise compile a
 * second, CommonJS copy of core).
 */
function muralPackages(dir: string): void {
  const manifests = new Map<string, Record<string, { import: string; require: string }>>();
  for (const [specifier, source] of Object.entries(ENTRIES)) {
    const [name, subpath] = specifier.startsWith('mural/') ? ['mural', specifier.slice('mural/'.length)] : [specifier, undefined];
    const pkg = join(dir, 'node_modules', name);
    mkdirSync(pkg, { recursive: true });
    const file = subpath ?? 'index';
    writeFileSync(join(pkg, `${file}.mjs`), `export * from '${resolve(repo, source)}';\n`);
    writeFileSync(join(pkg, `${file}.cjs`), `module.exports = globalThis[Symbol.for('${BRIDGE}')][${JSON.stringify(specifier)}];\n`);
    const exports = manifests.get(name) ?? {};
    exports[subpath ? `./${subpath}` : '.'] = { import: `./${file}.mjs`, require: `./${file}.cjs` };
    manifests.set(name, exports);
  }
  for (const [name, exports] of manifests) writeFileSync(join(dir, 'node_modules', name, 'package.json'), JSON.stringify({ name, exports }, null, 2));
}

/**
 * A throwaway application in the repository's git-ignored tmp/ folder, so
 * that `express`, `sequelize` and `ava` resolve from the repository's
 * node_modules; `mural` and `mural-cli` are the packages above.
 */
export function createApp(name: string, files: Record<string, string>): string {
  const dir = resolve(repo, 'tmp', `${name}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  muralPackages(dir);
  // ava runs the application's tests (the generated ones) with the same node options
  if (!existsSync(join(dir, 'package.json'))) return dir;
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
  const nodeArguments = [`--import=tsx`, `--import=${NODE_IMPORTS[3]}`];
  // a config file of its own, not package.json's `ava`: ava looks up the folders for one, and would find this repository's
  const avaConfig = { extensions: { ts: 'module', js: true }, nodeArguments, workerThreads: false, timeout: '2m' };
  writeFileSync(join(dir, 'ava.config.mjs'), `export default ${JSON.stringify(avaConfig, null, 2)};\n`);
  // an ava project, as far as `mural generate` can tell: its tests are written for ava
  pkg.devDependencies = { ...(pkg.devDependencies as object | undefined), ava: '*' };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  return dir;
}

export function removeApp(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Runs node with `args` in the repository, resolving to its exit code and output. */
async function node(args: string[], cwd = repo): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd, env: { ...process.env, NO_COLOR: '1' } });
    return { code: 0, out: stdout, err: stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, out: failed.stdout ?? '', err: failed.stderr ?? '' };
  }
}

/**
 * `mural ARGS` in the application, in a process of its own: a command closes
 * the application's Sequelize instance when done, as it should, so the next
 * command needs a fresh one, as it has from the shell.
 */
export function muralIn(dir: string, ...argv: string[]): Promise<CliResult> {
  return node([...NODE_IMPORTS, resolve(repo, 'test/support/mural-in-app.ts'), dir, ...argv]);
}

/** Runs the application's ava test files, from its directory. */
export function avaIn(dir: string, ...files: string[]): Promise<CliResult> {
  const ava = resolve(repo, 'node_modules/ava/entrypoints/cli.mjs');
  return node([ava, ...files], dir);
}
