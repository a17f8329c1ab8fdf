/**
 * The two manifests (packages/mural, packages/mural-cli) name exactly the
 * entry points the build compiles, each for both module systems; the runtime
 * depends on nothing but its peers, the CLI brings the toolchain, and
 * installing either runs no script.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { entryPointsOf, type PackageName } from '../../scripts/entry-points.ts';
import { repo } from '../support/packed-app.ts';

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  exports: Record<string, unknown>;
  typesVersions?: Record<string, Record<string, string[]>>;
  main: string;
  types: string;
  bin?: Record<string, string>;
  files: string[];
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const read = (path: string) => JSON.parse(readFileSync(join(repo, path), 'utf8')) as Manifest;
const manifests: Record<PackageName, Manifest> = { mural: read('packages/mural/package.json'), 'mural-cli': read('packages/mural-cli/package.json') };
const repository = read('package.json');
const compiled = (source: string, extension: string) => `./cjs/${source.replace(/\.ts$/, extension)}`;

for (const name of ['mural', 'mural-cli'] as const) {
  test(`${name}: every entry point maps import to its ES module face and require to the CommonJS build, types first`, (t) => {
    const manifest = manifests[name];
    const entries = entryPointsOf(name);
    t.is(manifest.name, name);
    t.deepEqual(Object.keys(manifest.exports).sort(), [...entries.map((e) => e.name), './package.json'].sort());
    for (const entry of entries) {
      t.deepEqual(manifest.exports[entry.name], {
        import: { types: `./esm/${entry.wrapper}.d.ts`, default: `./esm/${entry.wrapper}.js` },
        require: { types: compiled(entry.source, '.d.ts'), default: compiled(entry.source, '.js') },
      }, entry.name);
    }
    const root = entries.find((e) => e.name === '.')!;
    t.is(manifest.main, compiled(root.source, '.js'));
    t.is(manifest.types, compiled(root.source, '.d.ts'));
  });

  test(`${name}: installing it runs no script`, (t) => {
    t.deepEqual(manifests[name].scripts ?? {}, {});
  });
}

test('mural: TypeScript without exports support (moduleResolution node10) finds every subpath\'s types', (t) => {
  const subpaths = entryPointsOf('mural').filter((e) => e.name !== '.');
  t.deepEqual(manifests.mural.typesVersions, {
    '*': Object.fromEntries(subpaths.map((e) => [e.name.slice(2), [compiled(e.source, '.d.ts')]])),
  });
});

test('mural, the runtime, depends on nothing but its peers; only Sequelize is required of them', (t) => {
  const manifest = manifests.mural;
  t.is(manifest.dependencies, undefined);
  t.is(manifest.bin, undefined);
  t.deepEqual(Object.keys(manifest.peerDependencies ?? {}).sort(), ['express', 'mysql2', 'pg', 'sequelize', 'sqlite3']);
  const optional = Object.entries(manifest.peerDependenciesMeta ?? {}).filter(([, meta]) => meta.optional).map(([peer]) => peer).sort();
  t.deepEqual(optional, ['express', 'mysql2', 'pg', 'sqlite3']);
});

test('mural-cli brings the toolchain at the ranges this repository tests with, and the runtime of its own version as a peer', (t) => {
  const manifest = manifests['mural-cli'];
  t.deepEqual(manifest.bin, { mural: './bin/mural.js' });
  t.deepEqual(Object.keys(manifest.dependencies ?? {}).sort(), ['@inquirer/prompts', 'chalk', 'commander', 'json-schema-to-typescript', 'tsx']);
  for (const [dependency, range] of Object.entries(manifest.dependencies ?? {})) t.is(repository.devDependencies?.[dependency], range, dependency);
  t.deepEqual(manifest.peerDependencies, { mural: manifests.mural.version });
});

test('both packages and the repository share one version', (t) => {
  t.is(manifests.mural.version, repository.version);
  t.is(manifests['mural-cli'].version, repository.version);
});

test('the repository itself is no package: private, and `npm install` in a clone builds nothing', (t) => {
  t.true(repository.private);
  t.is(repository.scripts?.prepare, undefined);
  t.is(repository.scripts?.pack, 'tsx scripts/pack.ts');
  // `npx mural` in a clone runs the CLI from the sources
  t.deepEqual(repository.bin, { mural: './bin/mural.js' });
});
