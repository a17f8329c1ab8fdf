import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';

/** One file of the explorer page, held in memory: a handful of small files read once. */
export interface ExplorerAsset {
  body: Buffer;
  type: string;
  etag: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
};
/** Bounds on what is read into memory, whatever the folder holds. */
const MAX_FILES = 32;
const MAX_FILE_BYTES = 512 * 1024;

/**
 * The folder of the page's files: beside this module, in the sources
 * (plugins/express/explorer) and in the compiled package, where the build
 * copies it next to the compiled module (dist/cjs/plugins/express/explorer).
 * The CommonJS build defines `import.meta.dirname` as `__dirname`.
 */
export const EXPLORER_DIRECTORY = join(import.meta.dirname, 'explorer');

let loaded: ReadonlyMap<string, ExplorerAsset> | undefined;

/** The page's files by name (`index.html`, `explorer.js`…), read on first use. */
export function explorerAssets(): ReadonlyMap<string, ExplorerAsset> {
  loaded ??= readAssets(EXPLORER_DIRECTORY);
  return loaded;
}

function readAssets(directory: string): Map<string, ExplorerAsset> {
  const assets = new Map<string, ExplorerAsset>();
  const names = readdirSync(directory).filter((name) => Object.hasOwn(TYPES, extname(name))).sort();
  for (const name of names.slice(0, MAX_FILES)) {
    const path = join(directory, name);
    if (!statSync(path).isFile() || statSync(path).size > MAX_FILE_BYTES) continue;
    const body = readFileSync(path);
    assets.set(name, { body, type: TYPES[extname(name)]!, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` });
  }
  return assets;
}
