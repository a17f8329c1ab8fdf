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
 * esbuild compiles file by file (no bundling: stack traces, source maps and
 * declaration maps keep pointing at the shipped sources); tsc writes the
 * declarations, which esbuild cannot.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { build } from 'esbuild';
import { ASSET_FOLDERS, ENTRY_POINTS, SOURCE_ROOTS, type EntryPoint } from './entry-points.ts';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'dist');
const cjs = join(dist, 'cjs');
const esm = join(dist, 'esm');

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

function sourceFiles(): string[] {
  const files = SOURCE_ROOTS.flatMap((source) => (source.endsWith('.ts') ? [join(root, source)] : filesUnder(join(root, source))));
  return files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts')).sort();
}

async function compileCommonJs(files: string[]): Promise<void> {
  await build({
    entryPoints: files,
    outdir: cjs,
    outbase: root,
    format: 'cjs',
    platform: 'node',
    target: 'node20.17',
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
    tsconfig: join(root, 'tsconfig.json'),
    // a module that finds files beside itself (the explorer's) does so through import.meta.dirname in both builds
    define: { 'import.meta.dirname': '__dirname' },
  });
  // sources import each other as `./x.ts`; the compiled files are `./x.js`
  for (const file of files) {
    const compiled = join(cjs, relative(root, file)).replace(/\.ts$/, '.js');
    rewriteSpecifiers(compiled, COMPILED_SPECIFIER);
    settleExports(compiled);
  }
  writeFileSync(join(cjs, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
  for (const folder of ASSET_FOLDERS) cpSync(join(root, folder), join(cjs, folder), { recursive: true });
}

/** `require("./x.ts")` in esbuild's output. */
const COMPILED_SPECIFIER = /(require\(|import\()"(\.{1,2}\/[^"]+)\.ts"\)/g;
/** `from './x.ts'` and `import('./x.ts')` in tsc's declarations. */
const DECLARED_SPECIFIER = /(from |import\()(['"])(\.{1,2}\/[^'"]+)\.ts\2/g;

/** `./x.ts` → `./x.js`: the same length, so source and declaration maps stay exact. */
function rewriteSpecifiers(file: string, pattern: RegExp): void {
  const code = readFileSync(file, 'utf8');
  const rewritten = code.replace(pattern, (match) => `${match.slice(0, match.lastIndexOf('.ts'))}.js${match.slice(match.lastIndexOf('.ts') + 3)}`);
  if (rewritten !== code) writeFileSync(file, rewritten);
}

/*
 * esbuild's CommonJS exports are getters, so that a module's exports can be
 * read before it has finished (import cycles) and follow `export let`
 * reassignments. Every call from one module into another then runs a getter,
 * two through an index that re-exports: in a request's profile they added up
 * to more than any one of Mural's functions. Mural has no `export let`, so
 * once a module has run, its exports are made plain values. The getters are
 * made configurable for that, on the same lines (source maps stay exact),
 * and each export is settled by a line added after the module's code. An
 * export that cannot be read yet (a cycle still under way) keeps its getter.
 */
const EXPORT_GETTER = '__defProp(target, name, { get: all[name], enumerable: true });';
const COPIED_GETTER = '__defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });';
const SETTLE =
  ';(function settle(exports) { for (const key of Object.getOwnPropertyNames(exports)) { const d = Object.getOwnPropertyDescriptor(exports, key); if (!d || !d.get || !d.configurable) continue; let value; try { value = d.get(); } catch { continue; } if (value !== undefined) Object.defineProperty(exports, key, { value, enumerable: d.enumerable, writable: false, configurable: false }); } })(module.exports);';

function settleExports(file: string): void {
  const code = readFileSync(file, 'utf8');
  if (!code.includes('module.exports = __toCommonJS(')) return;
  if (!code.includes(EXPORT_GETTER) && !code.includes(COPIED_GETTER)) throw new Error(`${file}: esbuild's export helpers changed; update settleExports in scripts/build.ts`);
  const configurable = code
    .replace(EXPORT_GETTER, EXPORT_GETTER.replace('enumerable: true }', 'enumerable: true, configurable: true }'))
    .replace(COPIED_GETTER, COPIED_GETTER.replace('desc.enumerable }', 'desc.enumerable, configurable: true }'));
  const mapComment = configurable.lastIndexOf('\n//# sourceMappingURL=');
  const end = mapComment === -1 ? configurable.length : mapComment;
  writeFileSync(file, `${configurable.slice(0, end)}\n${SETTLE}${configurable.slice(end)}`);
}

function emitDeclarations(): void {
  const tsc = join(root, 'node_modules', '.bin', 'tsc');
  execFileSync(tsc, ['-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });
  // tsc keeps the sources' `.ts` specifiers in declarations; users resolve the `.d.ts` beside each `.js`
  for (const file of filesUnder(cjs)) if (file.endsWith('.d.ts')) rewriteSpecifiers(file, DECLARED_SPECIFIER);
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
  await compileCommonJs(sourceFiles());
  emitDeclarations();
  const load = createRequire(join(cjs, 'package.json'));
  for (const entry of ENTRY_POINTS) writeEsmWrapper(entry, load);
}

await main();
