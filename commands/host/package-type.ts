import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface PackageJson {
  type?: unknown;
  /** ava's configuration, when package.json holds it. */
  ava?: unknown;
  scripts?: Record<string, unknown>;
  dependencies?: Record<string, unknown>;
  devDependencies?: Record<string, unknown>;
}

/** The nearest package.json at or above `directory`, parsed; undefined when there is none or it is not JSON. */
export function nearestPackageJson(directory: string): PackageJson | undefined {
  for (let dir = directory, depth = 0; depth < 64; dir = dirname(dir), depth++) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
        return typeof parsed === 'object' && parsed !== null ? (parsed as PackageJson) : undefined;
      } catch {
        return undefined;
      }
    }
    if (dirname(dir) === dir) break;
  }
  return undefined;
}

/** Whether Node treats `.js` files in `directory` as ES modules: the nearest package.json says `"type": "module"`. */
export function isModulePackage(directory: string): boolean {
  return nearestPackageJson(directory)?.type === 'module';
}

/** The test runners generated tests can be written for. */
export type TestRunner = 'ava' | 'vitest' | 'node';

/**
 * The runner the project already uses: the one its `test` script runs,
 * else the one its package.json lists (Vitest, else ava), else Node's own
 * `node:test`, which every project has.
 */
export function testRunnerOf(directory: string): TestRunner {
  const manifest = nearestPackageJson(directory);
  const script = manifest?.scripts?.test;
  if (typeof script === 'string') {
    if (/\bvitest\b/.test(script)) return 'vitest';
    if (/\bava\b/.test(script)) return 'ava';
    if (/\bnode\b.*\s--test\b/.test(script)) return 'node';
  }
  const has = (name: string) => [manifest?.dependencies, manifest?.devDependencies].some((deps) => typeof deps === 'object' && deps !== null && Object.hasOwn(deps, name));
  if (has('vitest')) return 'vitest';
  if (has('ava')) return 'ava';
  return 'node';
}
