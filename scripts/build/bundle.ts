/**
 * Each package's implementation is ONE CommonJS file, bundled by esbuild, and
 * each CommonJS entry point is a one-line file that asks the bundle for its
 * exports. One file instead of some 230 takes about a seventh off the start
 * of a `mural` command (Node resolves, reads and wraps each module, and with
 * source maps on reads each map), and calls between Mural's modules become
 * plain calls.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { ROOT } from './paths.ts';

/**
 * The bundle's own entry: per entry point, a function that runs that entry's
 * modules on first call (esbuild wraps a module reached through `require`
 * so that it initialises lazily) and returns its exports as plain values.
 * `require('mural')` therefore runs core alone: not the Express plugin nor
 * `require('express')`, an optional peer.
 */
function bundleEntry(sources: readonly string[]): string {
  const loaders = sources.map((source) => `  ${JSON.stringify(loaderName(source))}: once(() => require(${JSON.stringify(`./${source}`)})),`);
  return `'use strict';
// esbuild's CommonJS exports are getters (for import cycles); once an entry has run they are read once, into plain values
function plain(exports) {
  const values = Object.defineProperty({}, '__esModule', { value: true });
  for (const key of Object.keys(exports)) Object.defineProperty(values, key, { value: exports[key], enumerable: true });
  return values;
}
function once(load) {
  let exports;
  return () => (exports ??= plain(load()));
}
module.exports = {
${loaders.join('\n')}
};
`;
}

/** `core/index.ts` → `core_index`: the key of an entry point's loader in the bundle. */
function loaderName(source: string): string {
  return source.replace(/\.ts$/, '').replace(/[^a-z0-9]+/gi, '_');
}

export interface BundleOptions {
  /** Repository-relative sources, each becoming `cjs/<source>.js`. */
  sources: readonly string[];
  /** The package's cjs/ folder. */
  cjs: string;
  /** The bundle's file name in it. */
  bundle: string;
  plugins: Plugin[];
}

/** Bundles `sources` into `cjs/<bundle>` and writes each entry point's one-line file beside it. */
export async function bundleCommonJs({ sources, cjs, bundle, plugins }: BundleOptions): Promise<void> {
  await build({
    stdin: { contents: bundleEntry(sources), resolveDir: ROOT, sourcefile: 'bundle-entry.cjs', loader: 'js' },
    outfile: join(cjs, bundle),
    bundle: true,
    packages: 'external',
    format: 'cjs',
    platform: 'node',
    target: 'node20.17',
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
    tsconfig: join(ROOT, 'tsconfig.json'),
    plugins,
  });
  restoreClassNames(join(cjs, bundle));
  // each entry point's file, where the manifest's exports and bin/mural.js look for it
  for (const source of sources) {
    const file = join(cjs, source.replace(/\.ts$/, '.js'));
    const bundlePath = relative(dirname(file), join(cjs, bundle)).split('\\').join('/');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `'use strict';\nmodule.exports = require(${JSON.stringify(bundlePath.startsWith('.') ? bundlePath : `./${bundlePath}`)})[${JSON.stringify(loaderName(source))}]();\n`);
  }
  writeFileSync(join(cjs, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
}

/*
 * A lazily initialised module's classes become `X = class {…}`, and one that
 * refers to itself `X = class _X {…}`, so that its own references survive a
 * reassignment of `X`: its name is then `_X`. Mural never reassigns a class,
 * and errors name themselves after theirs, so each gets its own name back.
 */
function restoreClassNames(file: string): void {
  let code = readFileSync(file, 'utf8');
  const renamed = [...code.matchAll(/\b([A-Za-z]\w*) = class _\1\b/g)].map((match) => match[1]!);
  for (const name of new Set(renamed)) code = code.replace(new RegExp(`(?<![\\w$.])_${name}\\b`, 'g'), name);
  writeFileSync(file, code);
}
