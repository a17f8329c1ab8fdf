import { spawnSync } from 'node:child_process';
import { isAbsolute, relative } from 'node:path';

/** Where a syntax error is, and what it is. */
export interface SyntaxErrorSite {
  file: string;
  line: number;
  column: number;
  message: string;
}

// CommonJS and `node --check`: `/app/mural.config.js:4`, the line's source, a caret under the column, …, `SyntaxError: …`
const NODE_HEADER = /^(.+):(\d+)$/;
// tsx (esbuild): `Transform failed with 1 error:\n/app/mural.config.ts:4:0: ERROR: Unexpected "}"`
const ESBUILD_ERROR = /^(.+?):(\d+):(\d+): ERROR: (.+)$/m;

/** Node's own report of a syntax error: where it is, from the header line and the caret under the source. */
function fromNodeReport(report: string, fallback: string): SyntaxErrorSite | undefined {
  const lines = report.split('\n');
  const header = NODE_HEADER.exec(lines[0] ?? '');
  if (!header) return undefined;
  const caret = lines[2]?.indexOf('^') ?? -1;
  const message = lines.find((l) => /^SyntaxError: /.test(l))?.replace(/^SyntaxError: /, '') ?? fallback;
  return { file: header[1]!, line: Number(header[2]), column: caret + 1 || 1, message };
}

/**
 * Where the syntax error that stopped `path` (or a module it imports) from
 * loading is. CommonJS puts it at the head of the stack, and tsx in its
 * message; Node 20 gives an ES module's only to an error left uncaught, so
 * `node --check` (which parses, and runs nothing) finds it in `path` itself.
 */
export function locateSyntaxError(error: unknown, path: string): SyntaxErrorSite | undefined {
  if (!(error instanceof Error)) return undefined;
  const esbuild = ESBUILD_ERROR.exec(error.message);
  if (esbuild) return { file: esbuild[1]!, line: Number(esbuild[2]), column: Number(esbuild[3]) + 1, message: esbuild[4]! };
  if (error.name !== 'SyntaxError') return undefined;
  const located = fromNodeReport(error.stack ?? '', error.message);
  if (located || !/\.[cm]?js$/.test(path)) return located;
  const check = spawnSync(process.execPath, ['--check', path], { encoding: 'utf8', timeout: 10_000 });
  return check.status === 0 ? undefined : fromNodeReport(check.stderr, error.message);
}

/** A path as the user typed it: relative to `cwd` when under it. */
function shown(file: string, cwd: string): string {
  return isAbsolute(file) && !relative(cwd, file).startsWith('..') ? relative(cwd, file) : file;
}

/**
 * `Syntax error at mural.config.js:4:1: Unexpected token '}'` for a module
 * at `path` that failed to load for one (and `(imported by …)` when the
 * error is in a module it imports); undefined for any other failure.
 */
export function syntaxErrorMessage(error: unknown, path: string, cwd: string): string | undefined {
  const site = locateSyntaxError(error, path);
  if (!site) return undefined;
  const importer = site.file === path ? '' : ` (imported by ${shown(path, cwd)})`;
  return `Syntax error at ${shown(site.file, cwd)}:${site.line}:${site.column}: ${site.message}${importer}`;
}
