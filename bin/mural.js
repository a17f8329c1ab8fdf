#!/usr/bin/env node
// The `mural` executable: TypeScript (the CLI's and the project's config) runs through tsx, no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv.slice(2));
