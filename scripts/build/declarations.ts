/**
 * tsc writes the declarations, file by file (esbuild cannot), once for the
 * whole tree; each package then takes its own files. The CLI's declarations
 * name the runtime's types by package name (`from 'mural'`), as its code
 * does, so an app's editor sees one `Resource` whichever package it came
 * through.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { CLI_SHARED_PURE_MODULES, packageOfSource, type PackageName } from '../entry-points.ts';
import { runtimeSpecifierFor } from './bundle-plugins.ts';
import { ROOT, slashed } from './paths.ts';

/** `from './x.ts'` and `import('./x.ts')` in tsc's declarations. */
const DECLARED_SPECIFIER = /(from |import\()(['"])(\.{1,2}\/[^'"]+)\.ts\2/g;

/** `core/x.d.ts` → `core/x.ts`. */
function sourceOf(declaration: string): string {
  return declaration.replace(/\.d\.ts$/, '.ts');
}

/** The packages that ship a declaration: the CLI also ships those of the runtime modules it compiles in. */
function packagesOf(source: string): PackageName[] {
  return CLI_SHARED_PURE_MODULES.includes(source) ? ['mural', 'mural-cli'] : [packageOfSource(source)];
}

/**
 * `./x.ts` → `./x.js`; in
 * the CLI, a path into the runtime → the runtime entry point's name.
 */
function rewriteSpecifiers(code: string, declaration: string, owner: PackageName): string {
  return code.replace(DECLARED_SPECIFIER, (match, lead: string, quote: string, path: string) => {
    if (owner === 'mural-cli') {
      const target = posix.join(posix.dirname(declaration), `${path}.ts`);
      const specifier = runtimeSpecifierFor(target);
      if (specifier instanceof Error) throw new Error(`${declaration}: ${specifier.message}`);
      if (specifier !== undefined) return `${lead}${quote}${specifier}${quote}`;
    }
    return `${match.slice(0, match.lastIndexOf('.ts'))}.js${match.slice(match.lastIndexOf('.ts') + 3)}`;
  });
}

/**
 * Emits every declaration into `scratch`, then writes each into the cjs/
 * folder of the packages that ship it. No declaration maps: they would
 * double what the declarations weigh for an editor's jump to a source that
 * the declarations' doc comments already describe.
 */
export function emitDeclarations(scratch: string, packageDirectories: Record<PackageName, string>): void {
  const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
  execFileSync(tsc, ['-p', join(ROOT, 'tsconfig.build.json'), '--outDir', scratch], { stdio: 'inherit', cwd: ROOT });
  const emitted = readdirSync(scratch, { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile());
  for (const entry of emitted) {
    const declaration = slashed(relative(scratch, join(entry.parentPath, entry.name)));
    const source = sourceOf(declaration);
    const code = readFileSync(join(scratch, declaration), 'utf8');
    for (const owner of packagesOf(source)) {
      const target = join(packageDirectories[owner], 'cjs', declaration);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, rewriteSpecifiers(code, declaration, owner));
    }
  }
  rmSync(scratch, { recursive: true, force: true });
}
