import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import type { TemplateContext } from '../host/template.ts';
import { nearestPackageJson } from '../host/package-type.ts';
import { TEST_DATABASE_VARIABLE } from '../../templates/resource-test.ts';

/** The command that runs the generated test, and what the user must know for it to run. */
export interface TestCommand {
  command: string;
  notes: string[];
}

/**
 * An ava.config.* file where ava looks for one: the project's folder and
 * those above it, up to the repository's root (the folder holding `.git`).
 */
function avaConfigFileAbove(root: string): boolean {
  for (let dir = root; ; dir = dirname(dir)) {
    if (['js', 'mjs', 'cjs'].some((extension) => existsSync(join(dir, `ava.config.${extension}`)))) return true;
    if (existsSync(join(dir, '.git')) || dirname(dir) === dir) return false;
  }
}

/** Whether ava, as the project configures it, runs `.ts` test files. An ava.config.* file is code: it is trusted. */
function avaRunsTypeScript(root: string): boolean {
  if (['js', 'mjs', 'cjs'].some((extension) => existsSync(join(root, `ava.config.${extension}`)))) return true;
  const ava = nearestPackageJson(root)?.ava;
  if (typeof ava !== 'object' || ava === null) return avaConfigFileAbove(dirname(root));
  const { extensions, typescript } = ava as { extensions?: unknown; typescript?: unknown };
  if (typescript !== undefined) return true;
  if (Array.isArray(extensions)) return extensions.includes('ts');
  return typeof extensions === 'object' && extensions !== null && Object.hasOwn(extensions, 'ts');
}

function resolvable(root: string, name: string): boolean {
  try {
    createRequire(join(root, 'package.json')).resolve(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * `node --test` on Node 20 neither finds `.ts` files in a directory nor loads
 * TypeScript, so the command names the file and, for TypeScript, loads tsx
 * (which Mural's CLI installs). Vitest and ava find the file by its path; ava
 * runs TypeScript only when configured to, which is said rather than guessed.
 */
export function testCommand(root: string, template: TemplateContext): TestCommand {
  const file = relative(root, template.paths.test).split(sep).join('/');
  const typescript = template.code.language === 'typescript';
  const notes: string[] = [];
  let command: string;
  if (template.testRunner === 'node') {
    command = typescript ? `node --import tsx --test ${file}` : `node --test ${file}`;
    const script = nearestPackageJson(root)?.scripts?.test;
    // what made generated tests seem to vanish: `node --test test/` passes, having run none of them
    if (typescript && typeof script === 'string' && /\bnode\b.*\s--test\b/.test(script) && !/\btsx\b/.test(script)) {
      notes.push(`npm test (${script}) runs no .ts test on Node 20, which neither finds nor loads TypeScript; run them as above, with --import tsx and their paths`);
    }
  }
  else if (template.testRunner === 'vitest') command = `npx vitest run ${file}`;
  else {
    command = `npx ava ${file}`;
    if (typescript && !avaRunsTypeScript(root)) {
      notes.push('ava runs .ts tests once package.json\'s "ava" has "extensions": { "ts": "module" } and "nodeArguments": ["--import=tsx"]');
    }
  }
  if (!resolvable(root, 'sqlite3')) {
    notes.push(`its database is an in-memory SQLite one unless ${TEST_DATABASE_VARIABLE} names another: install sqlite3 (npm install --save-dev sqlite3), or set ${TEST_DATABASE_VARIABLE}`);
  }
  return { command, notes };
}
