/**
 * The two tarballs themselves: what the ecosystem's linters say of them,
 * what each ships, and what a production install of the runtime carries
 * (test/package/packed-tarball.test.ts installs them into apps of every kind).
 */
import test, { type ExecutionContext } from 'ava';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_SHARED_PURE_MODULES } from '../../scripts/entry-points.ts';
import { installApp, npmInstall, packTarballs, removeDirectory, repo, runIn, scratchDirectory, type Tarballs } from '../support/packed-app.ts';
import { RUNTIME_PEERS, serveAndQuery } from '../support/packed-app-checks.ts';

const scratch = scratchDirectory();
let tarballs: Promise<Tarballs> | undefined;
const packed = () => (tarballs ??= packTarballs(scratch));

test.after.always(() => removeDirectory(scratch));

const ENTRY_POINTS_SEEN: Record<keyof Tarballs, string[]> = {
  mural: ['.', './express', './package.json', './sequelize', './typescript'],
  'mural-cli': ['.', './package.json'],
};

for (const name of ['mural', 'mural-cli'] as const) {
  test(`publint finds nothing wrong with the ${name} tarball`, async (t) => {
    t.timeout(5 * 60_000);
    const result = await runIn(repo, join(repo, 'node_modules/.bin/publint'), [(await packed())[name], '--strict']);
    t.is(result.code, 0, result.out + result.err);
    t.regex(result.out, /All good!/);
  });

  test(`are-the-types-wrong finds no problem for any entry point of ${name} or resolution mode`, async (t) => {
    t.timeout(5 * 60_000);
    const result = await runIn(repo, join(repo, 'node_modules/.bin/attw'), [(await packed())[name], '--format', 'json']);
    t.is(result.code, 0, result.out + result.err);
    const report = JSON.parse(result.out) as { analysis: { problems: unknown[]; entrypoints: Record<string, unknown> } };
    t.deepEqual(report.analysis.problems, []);
    t.deepEqual(Object.keys(report.analysis.entrypoints).sort(), ENTRY_POINTS_SEEN[name]);
  });
}

async function filesOf(tarball: string): Promise<string[]> {
  const { out } = await runIn(repo, 'tar', ['tzf', tarball]);
  return out.trim().split('\n').map((f) => f.replace(/^package\//, ''));
}

const topsOf = (files: string[]) => [...new Set(files.map((f) => f.split('/')[0]))].sort();

test('the runtime tarball ships its build and the sources its map points at: no CLI, no template, no test', async (t) => {
  t.timeout(5 * 60_000);
  const files = await filesOf((await packed()).mural);
  t.deepEqual(topsOf(files), ['LICENSE', 'README.md', 'cjs', 'core', 'esm', 'package.json', 'plugins']);
  t.false(files.some((f) => /\.test\.ts$|^test\/|^bench\/|^examples\/|^scripts\/|^commands\/|^templates\/|plugin\.(ts|js|d\.ts)$/.test(f)), files.join(' '));
  t.true(files.includes('cjs/mural.js') && files.includes('cjs/mural.js.map'));
  t.true(files.includes('cjs/core/index.js') && files.includes('cjs/core/index.d.ts'));
  t.true(files.includes('esm/index.js') && files.includes('esm/index.d.ts'));
  t.true(files.includes('core/index.ts') && files.includes('plugins/sequelize/sequelize-adapter.ts'));
  // the explorer's page is inside the bundle, which reads no folder of its own (an app may bundle it anywhere)
  t.false(files.some((f) => f.startsWith('cjs/plugins/express/explorer/')));
});

test('the CLI tarball ships the executable, its build and its own sources; the runtime it loads from mural', async (t) => {
  t.timeout(5 * 60_000);
  const files = await filesOf((await packed())['mural-cli']);
  t.deepEqual(topsOf(files), ['CHANGELOG.md', 'LICENSE', 'README.md', 'bin', 'cjs', 'commands', 'core', 'esm', 'package.json', 'plugins', 'templates']);
  t.true(files.includes('bin/mural.js') && files.includes('cjs/mural-cli.js') && files.includes('cjs/bin/main.js'));
  // of the runtime, only the pure functions it compiles in; each plugin's CLI side, nothing of its runtime
  t.deepEqual(files.filter((f) => f.startsWith('core/')).sort(), [...CLI_SHARED_PURE_MODULES].sort());
  t.deepEqual(files.filter((f) => f.startsWith('plugins/')).sort(), ['plugins/express/plugin.ts', 'plugins/sequelize/plugin.ts', 'plugins/typescript/plugin.ts']);
  t.false(files.some((f) => /\.test\.ts$|^test\/|^bench\/|^examples\//.test(f)));
});

/** What `npm ls --omit=dev --all` names: the packages an app carries into production. */
async function productionPackages(t: ExecutionContext, cwd: string): Promise<string[]> {
  const listed = await runIn(cwd, 'npm', ['ls', '--omit=dev', '--all', '--parseable']);
  t.is(listed.code, 0, listed.out + listed.err);
  return [...new Set(listed.out.trim().split('\n').map((path) => /node_modules\/((?:@[^/]+\/)?[^/]+)$/.exec(path)?.[1]).filter((name) => name !== undefined))].sort();
}

const TOOLCHAIN = /^(tsx|esbuild|@esbuild\/.*|prettier|json-schema-to-typescript|@inquirer\/.*|commander|chalk)$/;

test('a production install carries the runtime alone: no toolchain, about 2 MB, and the CLI as a dev dependency changes none of it', async (t) => {
  t.timeout(5 * 60_000);
  const built = await packed();
  const cwd = await installApp(scratch, 'esm', { tarballs: built, packages: RUNTIME_PEERS, cli: false, as: 'lean' });
  const alone = await productionPackages(t, cwd);
  t.true(alone.includes('mural') && alone.includes('express') && alone.includes('sequelize'), alone.join(' '));
  t.deepEqual(alone.filter((name) => TOOLCHAIN.test(name)), []);
  t.false(alone.includes('mural-cli'));
  const manifest = JSON.parse(readFileSync(join(cwd, 'node_modules/mural/package.json'), 'utf8')) as { dependencies?: object; scripts?: object };
  t.is(manifest.dependencies, undefined);
  t.is(manifest.scripts, undefined);
  const bytes = readdirSync(join(cwd, 'node_modules/mural'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
  // 2.13 MB with issue 34's write engine, 2.32 MB with issue 35's record writer and route table, 2.42 MB with issue 36's row rules; the bound catches a dependency or a build artefact shipped by mistake, not a feature
  t.true(bytes < 2.6e6, `node_modules/mural weighs ${bytes} bytes`);
  // the runtime serves without the CLI
  await serveAndQuery(t, process.execPath, ['server.js'], cwd);

  await npmInstall(cwd, ['--save-dev', built['mural-cli']]);
  t.deepEqual(await productionPackages(t, cwd), alone);
  const help = await runIn(cwd, 'npx', ['mural', '--help']);
  t.is(help.code, 0, help.out + help.err);
  t.regex(help.out, /Usage: mural/);
  // the version is compiled in: the CLI reads no manifest at run time
  const { version } = JSON.parse(readFileSync(join(repo, 'packages/mural-cli/package.json'), 'utf8')) as { version: string };
  t.deepEqual(await runIn(cwd, 'npx', ['mural', '--version']), { code: 0, out: `${version}\n`, err: '' });
  t.notRegex(readFileSync(join(cwd, 'node_modules/mural-cli/cjs/mural-cli.js'), 'utf8'), /require\([^)]*package\.json/);
});
