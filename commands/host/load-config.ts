import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CommandError } from './command.ts';
import type { ProjectConfig } from './project-config.ts';
import { isTypeScript, loadTypeScript } from './typescript-loader.ts';
import { syntaxErrorMessage } from './syntax-error.ts';

const NAMES = ['mural.config.ts', 'mural.config.mts', 'mural.config.cts', 'mural.config.js', 'mural.config.mjs', 'mural.config.cjs'];

/** Finds and imports the project's config; a TypeScript config needs no build step (tsx is loaded for it). */
export async function loadConfig(cwd: string, explicit?: string): Promise<{ config: ProjectConfig; root: string }> {
  const path = explicit ? resolve(cwd, explicit) : NAMES.map((n) => resolve(cwd, n)).find((p) => existsSync(p));
  if (!path || !existsSync(path)) {
    throw new CommandError(explicit ? `Config file ${explicit} not found` : `No mural.config.{ts,mts,cts,js,mjs,cjs} in ${cwd}; pass --config PATH`, 2);
  }
  let module: { default?: unknown };
  try {
    if (isTypeScript(path)) await loadTypeScript();
    module = (await import(pathToFileURL(path).href)) as { default?: unknown };
  } catch (error) {
    throw new CommandError(syntaxErrorMessage(error, path, cwd) ?? `Could not load ${path}: ${(error as Error).message}`, 2);
  }
  const config = configIn(module.default);
  if (!config) throw new CommandError(`${path} must export default a config with resources (use defineConfig)`, 2);
  return { config, root: dirname(path) };
}

const isConfig = (value: unknown): value is ProjectConfig => typeof value === 'object' && value !== null && 'resources' in value;

/**
 * An ES module's default export; a CommonJS config's `module.exports`; or,
 * for CommonJS compiled from `export default` (a `.cts`, or `.ts` in a
 * CommonJS project), the `default` inside it.
 */
function configIn(exported: unknown): ProjectConfig | undefined {
  if (isConfig(exported)) return exported;
  const inner = typeof exported === 'object' && exported !== null ? (exported as { default?: unknown }).default : undefined;
  return isConfig(inner) ? inner : undefined;
}
