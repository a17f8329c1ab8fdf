import { writeFileSync } from 'node:fs';
import type { CommandContext } from './command.ts';

export interface WriteOutputOptions {
  /** The line reported after writing; defaults to `Wrote <path>`. */
  message?: string;
}

/**
 * Sends a command's result to `path`, or to standard output when there is
 * none. The caller resolves `path` because each command has its own default
 * file (or none), and decides beforehand whether writing is allowed: schema
 * export's refusal depends on what the file holds, not on the file existing.
 */
export function writeOutput(context: CommandContext, path: string | undefined, text: string, options: WriteOutputOptions = {}): void {
  if (path === undefined) {
    context.io.out(text);
    return;
  }
  writeFileSync(path, text);
  context.io.out(options.message ?? `Wrote ${path}`);
}
