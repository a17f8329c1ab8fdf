import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildSchema } from '../../core/index.ts';
import type { MuralPlugin } from '../../commands/host/plugin.ts';
import { resourceTypes } from './index.ts';

/** Adds `mural types`: TypeScript types for every Resource, for API clients. */
export const typescriptPlugin: MuralPlugin = {
  name: 'typescript',
  setup(host) {
    host.command({
      name: 'types',
      description: 'Generate TypeScript types for every Resource from its schema',
      options: [{ flags: '--out <file>', description: 'write to this file instead of standard output' }],
      examples: ['mural types', 'mural types --out client/api-types.ts'],
      async run(context, _args, options) {
        // loaded on use: it brings a formatter with it, which every other command would pay for at startup
        const { compile } = await import('json-schema-to-typescript');
        const source = await resourceTypes(buildSchema(await context.resources()), { compile });
        if (typeof options.out === 'string') {
          const path = resolve(context.root, options.out);
          writeFileSync(path, source);
          context.io.out(`Wrote ${path}`);
        } else {
          context.io.out(source);
        }
        return 0;
      },
    });
  },
};
