/**
 * A package ships ONE implementation, compiled to CommonJS (its cjs/ folder
 * has a package.json of its own saying so), and per entry point a thin ES
 * module that re-exports it (esm/). `import` and `require` therefore load
 * the same module instance: a Resource declared through one and served
 * through the other shares its configuration, its type registry and its
 * request context, which two parallel builds could not promise (the
 * dual-package hazard). CommonJS is the implementation because it is the
 * format both module systems of Node 20.17+ can load without flags.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { specifierOf, type EntryPoint } from '../entry-points.ts';
import { slashed } from './paths.ts';

function implementationOf(packageDirectory: string, entry: EntryPoint): string {
  return join(packageDirectory, 'cjs', entry.source.replace(/\.ts$/, '.js'));
}

/** An ES module per entry point, naming every export of the CommonJS implementation. */
export function writeEsmFace(packageDirectory: string, entry: EntryPoint, load: NodeJS.Require): void {
  const implementation = implementationOf(packageDirectory, entry);
  const names = Object.keys(load(implementation) as object).filter((name) => name !== '__esModule').sort();
  const target = join(packageDirectory, 'esm', `${entry.wrapper}.js`);
  mkdirSync(dirname(target), { recursive: true });
  const path = slashed(relative(dirname(target), implementation));
  const specifier = path.startsWith('.') ? path : `./${path}`;
  const header = `// The ES module face of ${specifierOf(entry)}: the implementation is CommonJS, so both module systems share one instance.\n`;
  const body = names.length === 0
    ? `import '${specifier}';\n`
    : `import implementation from '${specifier}';\n\nexport const {\n${names.map((n) => `  ${n},`).join('\n')}\n} = implementation;\n`;
  writeFileSync(target, header + body);
  writeFileSync(target.replace(/\.js$/, '.d.ts'), `export * from '${specifier}';\n`);
}

/**
 * The bundle shares one scope, so esbuild renames a top-level name that two
 * modules both declare (`parse` → `parse2`). An exported class or function
 * must keep its name: errors name themselves after their class.
 */
export function checkExportedNames(packageDirectory: string, entries: readonly EntryPoint[], load: NodeJS.Require): void {
  for (const entry of entries) {
    const exports = load(implementationOf(packageDirectory, entry)) as Record<string, unknown>;
    for (const [key, value] of Object.entries(exports)) {
      if (typeof value === 'function' && value.name !== key && new RegExp(`^_?${key}\\d*$`).test(value.name)) {
        throw new Error(`${specifierOf(entry)} exports ${key} as ${value.name}: rename one of the modules' \`${key}\` so the bundle keeps the name`);
      }
    }
  }
}
