import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { buildOpenApi } from '../core/index.ts';
import { CommandError, type CommandContext, type CommandDefinition } from './host/command.ts';
import { writeOutput } from './host/write-output.ts';

export const openapi: CommandDefinition = {
  name: 'openapi',
  description: 'Write the OpenAPI 3.1 document of every endpoint; --check fails when the committed one is out of date',
  options: [
    { flags: '--out <file>', description: 'write to this file instead of standard output (default for --check: the config\'s openapi.path, or openapi.json)' },
    { flags: '--check', description: 'compare with the file instead of writing it; exit 1 when it differs' },
  ],
  examples: ['mural openapi', 'mural openapi --out openapi.json', 'mural openapi --check'],
  async run(context, _args, options) {
    const text = `${JSON.stringify(buildOpenApi(await context.resources(), { info: context.config.openapi?.info, operations: context.config.openapi?.operations }), null, 2)}\n`;
    if (options.check) return check(context, documentPath(context, options.out), text);
    writeOutput(context, typeof options.out === 'string' ? documentPath(context, options.out) : undefined, text);
    return 0;
  },
};

function documentPath(context: CommandContext, given: unknown): string {
  return resolve(context.root, typeof given === 'string' ? given : (context.config.openapi?.path ?? 'openapi.json'));
}

function check(context: CommandContext, path: string, text: string): number {
  const shown = relative(process.cwd(), path) || path;
  // --out is resolved against the project root, which is not the working directory when --config points elsewhere
  const fix = `run mural openapi --out ${relative(context.root, path)}${resolve(context.root) === process.cwd() ? '' : ` (in ${relative(process.cwd(), context.root)}, or with the same --config)`}`;
  if (!existsSync(path)) throw new CommandError(`No OpenAPI document at ${shown}; ${fix}`, 2);
  const committed = readFileSync(path, 'utf8');
  if (committed === text) {
    context.io.out(context.color.green(`${shown} is up to date.`));
    return 0;
  }
  const line = firstDifference(committed, text);
  context.io.err(context.color.red(`${shown} is out of date (first difference at line ${line}); ${fix}`));
  return 1;
}

function firstDifference(a: string, b: string): number {
  const left = a.split('\n');
  const right = b.split('\n');
  let i = 0;
  while (i < left.length && i < right.length && left[i] === right[i]) i++;
  return i + 1;
}
