import { importAtRunTime } from './import-at-run-time.ts';

/**
 * Lets Node load a project's TypeScript (its mural.config.ts and whatever that
 * imports) through tsx. Only configs written in TypeScript pay for it: a
 * `.js` or `.mjs` config never loads tsx at all.
 */
const REGISTERED = Symbol.for('mural.typescript-loader');

type Marked = typeof globalThis & { [REGISTERED]?: Promise<void> };

export function isTypeScript(path: string): boolean {
  return /\.[cm]?ts$/.test(path);
}

/** Registers tsx for ES modules and CommonJS, once per process (bin/mural.js may have done it already). */
export function loadTypeScript(): Promise<void> {
  const marked = globalThis as Marked;
  marked[REGISTERED] ??= (async () => {
    const [esm, cjs] = await Promise.all([
      importAtRunTime<typeof import('tsx/esm/api')>('tsx/esm/api'),
      importAtRunTime<typeof import('tsx/cjs/api')>('tsx/cjs/api'),
    ]);
    esm.register();
    cjs.register();
  })();
  return marked[REGISTERED];
}
