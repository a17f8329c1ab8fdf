import { currentScope, runInScope } from './async-scope.ts';

/**
 * The per-request store. Guards, scopes and hooks read it; it lives in
 * AsyncLocalStorage so it follows every awaited sideload without being passed
 * around, even when sideloads run concurrently. Any keys are allowed; an
 * application types its own by augmenting this interface:
 *
 *   declare module 'mural' {
 *     interface MuralContext { role?: string }
 *   }
 */
export interface MuralContext {
  [key: string]: unknown;
}

/** The context of the code running now, or undefined outside `withContext`. */
export function context<T extends MuralContext = MuralContext>(): T | undefined {
  return currentScope()?.context as T | undefined;
}

/** Runs `fn` with `ctx` as the context; nested calls see the innermost one. */
export function withContext<R>(ctx: MuralContext, fn: () => R): R {
  return runInScope({ context: ctx }, fn);
}
