import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { stripComments } from './strip-comments.ts';

/** A source module of the project, its comments blanked. */
export interface SourceFile {
  /** Relative to the project root, with `/`. */
  path: string;
  code: string;
}

export interface ProjectScan {
  files: SourceFile[];
  /** Whether a limit stopped the scan before it saw every file. */
  truncated: boolean;
}

const CODE = /\.(ts|mts|cts|js|mjs|cjs)$/;
const SKIPPED_FILE = /\.d\.[mc]?ts$|\.(test|spec)(-d)?\.[mc]?[jt]s$|^mural\.config\./;
/** Dependencies, build output, and test code (whose throwaway Sequelize instances are not the application's). */
const SKIPPED_DIRECTORY = new Set(['node_modules', 'dist', 'build', 'out', 'lib-cov', 'coverage', 'tmp', 'test', 'tests', '__tests__', 'spec', 'e2e', 'vendor']);

export const SCAN_LIMITS = { files: 2000, fileBytes: 512 * 1024, totalBytes: 16 * 1024 * 1024, depth: 12, directories: 5000 };

/**
 * The project's source modules, bounded: at most `SCAN_LIMITS.files` files of
 * at most `fileBytes` each and `totalBytes` in all, in at most `directories`
 * directories `depth` deep;
 * hidden directories, dependencies, build output and tests are not read, nor
 * symbolic links (no cycles, nothing outside the project).
 */
export function scanProject(root: string): ProjectScan {
  const scan: ProjectScan = { files: [], truncated: false };
  let bytes = 0;
  let directories = 0;
  const visit = (directory: string, depth: number) => {
    if (depth > SCAN_LIMITS.depth || ++directories > SCAN_LIMITS.directories) return void (scan.truncated = true);
    const entries = readdirSync(directory, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = join(directory, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORY.has(entry.name)) visit(path, depth + 1);
        continue;
      }
      if (!entry.isFile() || !CODE.test(entry.name) || SKIPPED_FILE.test(entry.name)) continue;
      const size = statSync(path).size;
      if (scan.files.length >= SCAN_LIMITS.files || bytes + size > SCAN_LIMITS.totalBytes) return void (scan.truncated = true);
      if (size > SCAN_LIMITS.fileBytes) continue;
      bytes += size;
      scan.files.push({ path: relative(root, path).split(sep).join('/'), code: stripComments(readFileSync(path, 'utf8')) });
    }
  };
  if (existsSync(root)) visit(root, 0);
  return scan;
}
