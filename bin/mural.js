#!/usr/bin/env node
// The `mural` executable (the mural-cli package). Installed, it runs its compiled JavaScript;
// TypeScript is only loaded (through tsx) when a project's mural.config.ts
// asks for it. In Mural's own checkout, whose tsconfig.json maps `mural` to
// the sources, the CLI runs those same sources, so that a config importing
// `mural` there shares the CLI's module instance.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const checkout = existsSync(new URL('../tsconfig.json', import.meta.url)) && existsSync(new URL('../core/index.ts', import.meta.url));

async function load() {
  // required, not imported: an import would first scan the CommonJS bundle for its export names
  if (!checkout) return createRequire(import.meta.url)('../cjs/bin/main.js');
  // the same registration commands/host/typescript-loader.ts makes, marked so it is made once
  // the checkout's tsconfig.json, whatever the working directory: its paths are what map `mural` to the sources
  const tsconfig = fileURLToPath(new URL('../tsconfig.json', import.meta.url));
  globalThis[Symbol.for('mural.typescript-loader')] = (async () => {
    const [esm, cjs] = await Promise.all([import('tsx/esm/api'), import('tsx/cjs/api')]);
    esm.register({ tsconfig });
    cjs.register({ tsconfig });
  })();
  await globalThis[Symbol.for('mural.typescript-loader')];
  return import('./main.ts');
}

const { main } = await load();
process.exitCode = await main(process.argv.slice(2));
