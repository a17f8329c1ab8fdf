/**
 * `npm run build`: compiles the package into dist/.
 *
 * Mural ships ONE implementation, compiled to CommonJS (dist/cjs, which has a
 * package.json of its own saying so), and per public entry a thin ES module
 * that re-exports it (dist/esm). `import` and `require` therefore load the
 * same module instance: a Resource declared through one and served through
 * the other shares its configuration, its type registry and its request
 * context, which two parallel builds could not promise (the dual-package
 * hazard). CommonJS is the implementation because it is the format both
 * module systems of Node 20.17+ can load without flags.
 *
 * esbuild bundles the implementation into one file, dist/cjs/mural.js, and
 * each CommonJS entry point is a one-line file that asks the bundle for its
 * exports. One file instead of some 230 takes about a seventh off the start
 * of a `mural` command (Node resolves, reads and wraps each module, and with
 * source maps on reads each map), and calls between Mural's modules become
 * plain calls. Its source map leads stack traces to the shipped TypeScript
 * sources; tsc writes the declarations, file by file, which esbuild cannot.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { ENTRY_POINTS, EXECUTABLE_SOURCE, type EntryPoint } from './entry-points.ts';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'dist');
const cjs = join(dist, 'cjs');
const esm = join(dist, 'esm');

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The bundle every CommonJS entry point of dist/cjs delegates to. */
const BUNDLE = 'mural.js';

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

/*
 * Compiled Mural reads no file of its own at run time: an app that bundles
 * its server moves Mural's code away from the package, and `__dirname` with
 * it (an ES module bundle has none). The explorer's page is the one set of
 * files it serves; the bundle holds them, in place of the module that reads
 * them from the sources' folder. Any other `import.meta.dirname` fails the
 * build rather than ship a path that only holds inside this package.
 */
const embeddedFiles: Plugin = {
  name: 'embedded-files',
  setup(bundle) {
    bundle.onLoad({ filter: /explorer-files\.ts$/ }, async (args) => {
      const { explorerFiles } = (await import(args.path)) as typeof import('../plugins/express/explorer-files.ts');
      const entries = [...explorerFiles()].map(([name, body]) => {
        const text = body.toString('utf8');
        if (!Buffer.from(text, 'utf8').equals(body)) throw new Error(`plugins/express/explorer/${name} is not UTF-8 text`);
        return `  [${JSON.stringify(name)}, ${JSON.stringify(text)}],`;
      });
      const contents = `const FILES = [
${entries.join('\n')}
];
export function explorerFiles() {
  return new Map(FILES.map(([name, text]) => [name, Buffer.from(text, 'utf8')]));
}
`;
      return { contents, loader: 'js' };
    });
    bundle.onLoad({ filter: /\.ts$/ }, (args) => {
      if (args.path.includes('node_modules') || !readFileSync(args.path, 'utf8').includes('import.meta.dirname')) return undefined;
      return { errors: [{ text: `${relative(root, args.path)} uses import.meta.dirname, which names no folder once an app bundles Mural; embed what it reads (see embeddedFiles)` }] };
    });
  },
};

async function compileCommonJs(sources: readonly string[]): Promise<void> {
  await build({
    stdin: { contents: bundleEntry(sources), resolveDir: root, sourcefile: 'mural-entry.cjs', loader: 'js' },
    outfile: join(cjs, BUNDLE),
    bundle: true,
    packages: 'external',
    format: 'cjs',
    platform: 'node',
    target: 'node20.17',
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
    tsconfig: join(root, 'tsconfig.json'),
    plugins: [embeddedFiles],
  });
  restoreClassNames(join(cjs, BUNDLE));
  // each entry point's file, where package.json's exports and bin/mural.js look for it
  for (const source of sources) {
    const file = join(cjs, source.replace(/\.ts$/, '.js'));
    const bundlePath = relative(dirname(file), join(cjs, BUNDLE)).split('\\').join('/');
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

/** `from './x.ts'` and `import('./x.ts')` in tsc's declarations. */
const DECLARED_SPECIFIER = /(from |import\()(['"])(\.{1,2}\/[^'"]+)\.ts\2/g;

/** `./x.ts` → `./x.js` in a declaration file: the same length, so declaration maps stay exact. */
function rewriteSpecifiers(file: string): void {
  const code = readFileSync(file, 'utf8');
  const rewritten = code.replace(DECLARED_SPECIFIER, (match) => `${match.slice(0, match.lastIndexOf('.ts'))}.js${match.slice(match.lastIndexOf('.ts') + 3)}`);
  if (rewritten !== code) writeFileSync(file, rewritten);
}

function emitDeclarations(): void {
  const tsc = join(root, 'node_modules', '.bin', 'tsc');
  execFileSync(tsc, ['-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });
  // tsc keeps the sources' `.ts` specifiers in declarations; users resolve the `.d.ts` beside each `.js`
  for (const file of filesUnder(cjs)) if (file.endsWith('.d.ts')) rewriteSpecifiers(file);
}

/** An ES module per entry point, naming every export of the CommonJS implementation. */
function writeEsmWrapper(entry: EntryPoint, load: NodeJS.Require): void {
  const implementation = join(cjs, entry.source.replace(/\.ts$/, '.js'));
  const names = Object.keys(load(implementation) as object).filter((name) => name !== '__esModule').sort();
  const target = join(esm, `${entry.wrapper}.js`);
  const path = relative(dirname(target), implementation).split('\\').join('/');
  const specifier = path.startsWith('.') ? path : `./${path}`;
  const header = `// The ES module face of ${entry.name === '.' ? 'mural' : `mural/${entry.name.slice(2)}`}: the implementation is CommonJS, so both module systems share one instance.\n`;
  const body = names.length === 0
    ? `import '${specifier}';\n`
    : `import implementation from '${specifier}';\n\nexport const {\n${names.map((n) => `  ${n},`).join('\n')}\n} = implementation;\n`;
  writeFileSync(target, header + body);
  writeFileSync(target.replace(/\.js$/, '.d.ts'), `export * from '${specifier}';\n`);
}

async function main(): Promise<void> {
  rmSync(dist, { recursive: true, force: true });
  mkdirSync(esm, { recursive: true });
  await compileCommonJs([...ENTRY_POINTS.map((entry) => entry.source), EXECUTABLE_SOURCE]);
  emitDeclarations();
  const load = createRequire(join(cjs, 'package.json'));
  checkExportedNames(load);
  for (const entry of ENTRY_POINTS) writeEsmWrapper(entry, load);
}

/**
 * The bundle shares one scope, so esbuild renames a top-level name that two
 * modules both declare (`parse` → `parse2`). An exported class or function
 * must keep its name: errors name themselves after their class.
 */
function checkExportedNames(load: NodeJS.Require): void {
  for (const entry of ENTRY_POINTS) {
    const exports = load(join(cjs, entry.source.replace(/\.ts$/, '.js'))) as Record<string, unknown>;
    for (const [key, value] of Object.entries(exports)) {
      if (typeof value === 'function' && value.name !== key && new RegExp(`^_?${key}\\d*$`).test(value.name)) {
        throw new Error(`${entry.name} exports ${key} as ${value.name}: rename one of the modules' \`${key}\` so the bundle keeps the name`);
      }
    }
  }
}

await main();
