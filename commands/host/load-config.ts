import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CommandError } from './command.ts';
import type { ProjectConfig } from './project-config.ts';

const NAMES = ['mural.config.ts', 'mural.config.js', 'mural.config.mjs'];

/** Finds and imports the project's config; TypeScript configs need no build step (tsx is loaded). */
export async function loadConfig(cwd: string, explicit?: string): Promise<{ config: ProjectConfig; root: string }> {
  const path = explicit ? resolve(cwd, explicit) : NAMES.map((n) => resolve(cwd, n)).find((p) => existsSync(p));
  if (!path || !existsSync(path)) {
    throw new CommandError(explicit ? `Config file ${explicit} not found` : `No mural.config.ts, .js or .mjs in ${cwd}; pass --config PATH`, 2);
  }
  let module: { default?: ProjectConfig };
  try {
    module = (await import(pathToFileURL(path).href)) as { default?: ProjectConfig };
  } catch (error) {
    throw new CommandError(`Could not load ${path}: ${(error as Error).message}`, 2);
  }
  if (!module.default || !('resources' in module.default)) {
    throw new CommandError(`${path} must export default a config with resources (use defineConfig)`, 2);
  }
  return { config: module.default, root: dirname(path) };
}
