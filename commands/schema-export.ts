import { relative } from 'node:path';
import { breakingChanges, buildSchema } from '../core/index.ts';
import type { CommandDefinition } from './host/command.ts';
import { count } from './host/plural.ts';
import { writeOutput } from './host/write-output.ts';
import { formatSchema, readSchema, schemaPath } from './schema-file.ts';

export const schemaExport: CommandDefinition = {
  name: 'schema export',
  description: 'Write the schema of every Resource (refuses to overwrite one with breaking changes unless --force)',
  options: [
    { flags: '--out <file>', description: 'where to write (default: the config\'s schemaPath, or schema.json)' },
    { flags: '--force', description: 'overwrite even when the change is breaking' },
  ],
  examples: ['mural schema export', 'mural schema export --out api/schema.json'],
  async run(context, _args, options) {
    const path = schemaPath(context, options.out);
    const schema = buildSchema(await context.resources());
    const previous = readSchema(path);
    const breaking = previous ? breakingChanges(previous, schema) : [];
    if (breaking.length > 0 && !options.force) {
      for (const line of breaking) context.io.err(context.color.red(line));
      context.io.err(context.color.red(`${relative(process.cwd(), path) || path} not written: ${count(breaking.length, 'breaking change')}. Use --force to write it anyway.`));
      return 1;
    }
    writeOutput(context, path, formatSchema(schema), { message: `Wrote ${count(schema.resources.length, 'resource')} to ${path}` });
    return 0;
  },
};
