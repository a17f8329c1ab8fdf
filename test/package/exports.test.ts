/** package.json names exactly the entry points the build compiles, each for both module systems. */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENTRY_POINTS } from '../../scripts/entry-points.ts';
import { repo } from '../support/packed-app.ts';

interface Manifest {
  exports: Record<string, unknown>;
  typesVersions: Record<string, Record<string, string[]>>;
  main: string;
  types: string;
  bin: Record<string, string>;
  files: string[];
  scripts: Record<string, string>;
}

const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as Manifest;
const compiled = (source: string, extension: string) => `./dist/cjs/${source.replace(/\.ts$/, extension)}`;

test('every entry point maps import to its ES module face and require to the CommonJS build, types first', (t) => {
  t.deepEqual(Object.keys(manifest.exports).sort(), [...ENTRY_POINTS.map((e) => e.name), './package.json'].sort());
  for (const entry of ENTRY_POINTS) {
    t.deepEqual(manifest.exports[entry.name], {
      import: { types: `./dist/esm/${entry.wrapper}.d.ts`, default: `./dist/esm/${entry.wrapper}.js` },
      require: { types: compiled(entry.source, '.d.ts'), default: compiled(entry.source, '.js') },
    }, entry.name);
  }
  const root = ENTRY_POINTS.find((e) => e.name === '.')!;
  t.is(manifest.main, compiled(root.source, '.js'));
  t.is(manifest.types, compiled(root.source, '.d.ts'));
});

test('TypeScript without exports support (moduleResolution node10) finds every subpath\'s types', (t) => {
  const subpaths = ENTRY_POINTS.filter((e) => e.name !== '.');
  t.deepEqual(manifest.typesVersions, {
    '*': Object.fromEntries(subpaths.map((e) => [e.name.slice(2), [compiled(e.source, '.d.ts')]])),
  });
});

test('installing from git or packing builds first', (t) => {
  t.is(manifest.scripts.prepare, 'npm run build');
  t.true(manifest.files.includes('dist'));
  t.is(manifest.bin.mural, './bin/mural.js');
});
