import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Schema } from '../core/index.ts';
import { CommandError, type CommandContext } from './host/command.ts';

export function schemaPath(context: CommandContext, given?: unknown): string {
  return resolve(context.root, typeof given === 'string' ? given : (context.config.schemaPath ?? 'schema.json'));
}

export function readSchema(path: string): Schema | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Schema;
  } catch (error) {
    throw new CommandError(`${path} is not valid JSON: ${(error as Error).message}`, 2);
  }
}

/** Two-space JSON with a trailing newline: what a repository should commit. */
export function formatSchema(schema: Schema): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}
