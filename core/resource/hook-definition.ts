import { ResourceConfigurationError } from '../errors/index.ts';
import type { MethodName } from '../resource/guard.ts';

/** The actions that write, which hooks may be limited to. */
export type WriteAction = 'create' | 'update' | 'destroy';

export const HOOK_NAMES = [
  'beforeAttributes', 'afterAttributes', 'aroundAttributes', 'beforeSave', 'afterSave', 'aroundSave',
  'aroundPersistence', 'beforeCommit', 'beforeDestroy', 'afterDestroy',
] as const;
/**
 * The name of a write hook: `beforeSave`, `aroundPersistence`, `beforeCommit`… (see the hooks
 * table of the Writes guide).
 */
export type HookName = (typeof HOOK_NAMES)[number];

/** Limits a hook to some actions: `{ only: ['create'] }` or `{ except: ['destroy'] }`. */
export interface HookOptions {
  only?: readonly WriteAction[];
  except?: readonly WriteAction[];
}

/** A block, or the name of a Resource method; `around*` hooks take method names only. */
export type HookHandler = string | ((...args: never[]) => unknown);

/** A hook receiving the model `M` (`beforeSave`, `afterAttributes`, …): a block or a method name of the Resource `I`. */
export type ModelHook<I = never, M = never> = MethodName<I> | ((this: I, model: M) => unknown);

/** `beforeAttributes`: receives the written attributes, already coerced, before they are assigned. */
export type AttributesHook<I = never> = MethodName<I> | ((this: I, attributes: Record<string, unknown>) => unknown);

export interface HookDefinition {
  readonly hook: HookName;
  readonly handler: HookHandler;
  readonly only?: readonly WriteAction[];
  readonly except?: readonly WriteAction[];
}

export function hookDefinition(hook: HookName, handler: HookHandler, options: HookOptions = {}): HookDefinition {
  if (hook.startsWith('around') && typeof handler !== 'string') {
    throw new ResourceConfigurationError(`${hook} takes the name of a Resource method, not a block`);
  }
  return { hook, handler, only: options.only, except: options.except };
}

export function appliesTo(definition: HookDefinition, action: WriteAction): boolean {
  if (definition.only && !definition.only.includes(action)) return false;
  return !definition.except?.includes(action);
}
