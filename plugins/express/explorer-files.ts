import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The folder of the explorer page's files in the sources. */
export const EXPLORER_DIRECTORY = join(import.meta.dirname, 'explorer');

/** Bounds on what is read into memory, whatever the folder holds. */
const MAX_FILES = 32;
const MAX_FILE_BYTES = 512 * 1024;

/**
 * The folder's files by name, in name order, read from EXPLORER_DIRECTORY
 * (explorer-assets.ts serves those of the page's types).
 * The build replaces this module with one holding the files themselves
 * (scripts/build.ts): compiled Mural reads no folder at run time, since an
 * app that bundles its server moves Mural's code, and `__dirname` with it
 * (in an ES module bundle there is none).
 */
export function explorerFiles(): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const names = readdirSync(EXPLORER_DIRECTORY).sort();
  for (const name of names.slice(0, MAX_FILES)) {
    const path = join(EXPLORER_DIRECTORY, name);
    const stats = statSync(path);
    if (stats.isFile() && stats.size <= MAX_FILE_BYTES) files.set(name, readFileSync(path));
  }
  return files;
}
