import { breakingChanges, buildSchema } from '../core/index.ts';
import { CommandError, type CommandDefinition } from './host/command.ts';
import { count } from './host/plural.ts';
import { readSchema, schemaPath } from './schema-file.ts';

export const schemaCheck: CommandDefinition = {
  name: 'schema check',
  description: 'Compare the Resources with the committed schema; exit 1 on breaking changes',
  options: [
    { flags: '--old <file>', description: 'the committed schema (default: the config\'s schemaPath, or schema.json)' },
    { flags: '--format <format>', description: 'text or json', defaultValue: 'text' },
  ],
  examples: ['mural schema check', 'mural schema check --old main-schema.json --format json'],
  async run(context, _args, options) {
    const path = schemaPath(context, options.old);
    const old = readSchema(path);
    if (!old) throw new CommandError(`No schema at ${path}; run mural schema export first`, 2);
    const breaking = breakingChanges(old, buildSchema(await context.resources()));
    if (options.format === 'json') {
      context.io.out(JSON.stringify({ compatible: breaking.length === 0, breaking }, null, 2));
    } else if (breaking.length === 0) {
      context.io.out(context.color.green('No breaking changes.'));
    } else {
      for (const line of breaking) context.io.out(context.color.red(line));
      context.io.out(`${count(breaking.length, 'breaking change')}.`);
    }
    return breaking.length === 0 ? 0 : 1;
  },
};
