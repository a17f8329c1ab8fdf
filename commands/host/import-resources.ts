import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Resource } from '../../core/index.ts';
import { syntaxErrorMessage } from './syntax-error.ts';

type ResourceClass = typeof Resource;

const CODE = /\.(ts|mts|cts|js|mjs|cjs)$/;
const SKIPPED_FILE = /\.d\.[mc]?ts$|\.(test|spec)\.[mc]?[jt]s$/;
const MAX_FILES = 1000;
const MAX_DEPTH = 8;

function isResourceClass(value: unknown): value is ResourceClass {
  return typeof value === 'function' && value.prototype instanceof Resource;
}

/**
 * The concrete Resource classes among modules: module namespaces, CommonJS
 * `module.exports` objects, arrays or classes. Abstract Resources (an
 * ApplicationResource) are skipped, each class counts once, order is kept.
 */
export function resourcesFrom(...modules: unknown[]): ResourceClass[] {
  const found = new Set<ResourceClass>();
  const visit = (value: unknown, depth: number) => {
    if (isResourceClass(value)) {
      if (!value.abstractClass) found.add(value);
    } else if (depth < 2 && typeof value === 'object' && value !== null) {
      // `default` of an imported CommonJS module is its module.exports: one level deeper
      for (const member of Object.values(value)) visit(member, depth + 1);
    }
  };
  for (const module of modules) visit(module, 0);
  return [...found];
}

/** Code files under a directory, sorted, bounded: no node_modules, hidden directories, tests or declarations. */
function codeFiles(directory: string, files: string[] = [], depth = 0): string[] {
  if (depth > MAX_DEPTH) return files;
  for (const entry of readdirSync(directory, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = join(directory, entry.name);
    if (entry.isDirectory()) codeFiles(path, files, depth + 1);
    else if (entry.isFile() && CODE.test(entry.name) && !SKIPPED_FILE.test(entry.name)) files.push(path);
    if (files.length > MAX_FILES) throw new Error(`More than ${MAX_FILES} modules under ${directory}; point resources at the Resource modules`);
  }
  return files;
}

/** A file's modules, or a directory's; a directory not created yet has none, a missing file is an error. */
function modulePaths(path: string): string[] {
  if (!existsSync(path)) {
    if (CODE.test(extname(path))) throw new Error(`${path} does not exist`);
    return [];
  }
  return statSync(path).isDirectory() ? codeFiles(path) : [path];
}

/** One path given to importResources: where it led, and the modules found there. */
interface Imported {
  readonly resolved: string;
  readonly modules: readonly unknown[];
}

async function importModule(file: string, directory: string): Promise<unknown> {
  try {
    return await import(pathToFileURL(file).href);
  } catch (error) {
    throw new Error(syntaxErrorMessage(error, file, directory) ?? `${relative(directory, file)}: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * Imports the Resource modules at `paths` (files, or directories whose every
 * module is imported) relative to `base`, the config's `import.meta.url` or
 * `__filename` (or a directory), and returns their concrete Resources:
 * `resources: () => importResources(import.meta.url, 'src/resources')`.
 * A folder not created yet adds none (`mural init` names the one `generate`
 * will write to), but finding no Resource at all is an error naming where it
 * looked: a wrong path would otherwise surface later as an empty API.
 */
export async function importResources(base: string | URL, ...paths: string[]): Promise<ResourceClass[]> {
  const from = base instanceof URL || base.startsWith('file:') ? fileURLToPath(base) : base;
  const directory = existsSync(from) && statSync(from).isDirectory() ? from : dirname(from);
  const imported: Imported[] = [];
  for (const path of paths) {
    const resolved = resolve(directory, path);
    const modules: unknown[] = [];
    for (const file of modulePaths(resolved)) modules.push(await importModule(file, directory));
    imported.push({ resolved, modules });
  }
  const resources = resourcesFrom(...imported.flatMap((i) => i.modules));
  if (resources.length === 0) throw new Error(`importResources found no Resource: ${imported.map(foundNothing).join('; ') || 'it was given no path'}`);
  return resources;
}

function foundNothing({ resolved, modules }: Imported): string {
  if (!existsSync(resolved)) return `${resolved} does not exist`;
  if (modules.length === 0) return `${resolved} holds no module`;
  const count = modules.length === 1 ? '1 module' : `${modules.length} modules`;
  return `${resolved} holds ${count}, none exporting a concrete Resource class`;
}
