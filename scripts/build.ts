/**
 * `npm run build`: compiles the two packages into dist/mural and
 * dist/mural-cli, each a directory `npm pack` turns into what users install
 * (`npm run pack` does both). `tsx scripts/build.ts --out <dir>` builds
 * elsewhere: tests build into a directory of their own, so that no test
 * deletes what another reads.
 *
 * Per package: one CommonJS bundle with a one-line file per entry point
 * (build/bundle.ts), an ES module face per entry point (build/esm-faces.ts),
 * tsc's declarations (build/declarations.ts), and the TypeScript sources its
 * bundle's map points at (build/source-maps.ts), beside the manifest and README of
 * packages/<name>/.
 */
import { cpSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { entryPointsOf, EXECUTABLE_SOURCE, type PackageName } from './entry-points.ts';
import { bundleCommonJs } from './build/bundle.ts';
import { embeddedFiles, runtimeAsPackage } from './build/bundle-plugins.ts';
import { emitDeclarations } from './build/declarations.ts';
import { checkExportedNames, writeEsmFace } from './build/esm-faces.ts';
import { ROOT } from './build/paths.ts';
import { copySources, relocateBundleMap } from './build/source-maps.ts';

export const DEFAULT_OUT = join(ROOT, 'dist');

export type BuiltPackages = Record<PackageName, string>;

/** Each package's bundle file in its cjs/ folder. */
const BUNDLES: Record<PackageName, string> = { mural: 'mural.js', 'mural-cli': 'mural-cli.js' };

async function compile(name: PackageName, directory: string): Promise<string[]> {
  const sources = entryPointsOf(name).map((entry) => entry.source);
  if (name === 'mural-cli') sources.push(EXECUTABLE_SOURCE);
  const cjs = join(directory, 'cjs');
  await bundleCommonJs({ sources, cjs, bundle: BUNDLES[name], plugins: name === 'mural' ? [embeddedFiles] : [runtimeAsPackage, embeddedFiles] });
  return relocateBundleMap(join(cjs, `${BUNDLES[name]}.map`), directory, name);
}

/**
 * The manifest and README of packages/<name>/ and the licence; the CLI
 * also carries the changelog (the runtime leaves it to the repository: it
 * would be a twentieth of what a production install weighs).
 */
function copyPackageFiles(name: PackageName, directory: string): void {
  cpSync(join(ROOT, 'packages', name), directory, { recursive: true });
  cpSync(join(ROOT, 'LICENSE'), join(directory, 'LICENSE'));
  if (name === 'mural-cli') cpSync(join(ROOT, 'CHANGELOG.md'), join(directory, 'CHANGELOG.md'));
  if (name === 'mural-cli') cpSync(join(ROOT, 'bin', 'mural.js'), join(directory, 'bin', 'mural.js'));
}

/**
 * Loads each built entry point to write its ES module face. The CLI's code
 * requires `mural`, so the runtime is linked where Node looks for it, for
 * the length of the build; the CLI's own dependencies resolve from this
 * repository's node_modules, which is why `out` must lie inside it.
 */
function writeEsmFaces(out: string, directories: BuiltPackages): void {
  const link = join(out, 'node_modules', 'mural');
  mkdirSync(join(out, 'node_modules'), { recursive: true });
  rmSync(link, { recursive: true, force: true });
  symlinkSync(directories.mural, link, 'dir');
  try {
    for (const name of ['mural', 'mural-cli'] as const) {
      const load = createRequire(join(directories[name], 'cjs', 'package.json'));
      checkExportedNames(directories[name], entryPointsOf(name), load);
      for (const entry of entryPointsOf(name)) writeEsmFace(directories[name], entry, load);
    }
  } finally {
    rmSync(join(out, 'node_modules'), { recursive: true, force: true });
  }
}

/** Builds both packages under `out` (default dist/); returns their directories. */
export async function buildPackages(out = DEFAULT_OUT): Promise<BuiltPackages> {
  const inside = relative(ROOT, resolve(out));
  if (inside.startsWith('..') || isAbsolute(inside)) throw new Error(`build into a directory inside ${ROOT} (the CLI's dependencies resolve from its node_modules), not ${out}`);
  const directories: BuiltPackages = { mural: join(out, 'mural'), 'mural-cli': join(out, 'mural-cli') };
  for (const directory of Object.values(directories)) rmSync(directory, { recursive: true, force: true });
  const bundled: Record<PackageName, string[]> = { mural: await compile('mural', directories.mural), 'mural-cli': await compile('mural-cli', directories['mural-cli']) };
  emitDeclarations(join(out, '.declarations'), directories);
  for (const name of ['mural', 'mural-cli'] as const) {
    copySources(bundled[name], directories[name]);
    copyPackageFiles(name, directories[name]);
  }
  writeEsmFaces(out, directories);
  return directories;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--out');
  await buildPackages(at < 0 ? DEFAULT_OUT : resolve(process.argv[at + 1] ?? ''));
}
