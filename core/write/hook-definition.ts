import { ResourceConfigurationError } from '../errors/index.ts';

export type WriteAction = 'create' | 'update' | 'destroy';

export const HOOK_NAMES = [
  'beforeAttributes', 'afterAttributes', 'aroundAttributes', 'beforeSave', 'afterSave', 'aroundSave',
  'aroundPersistence', 'beforeCommit', 'beforeDestroy', 'afterDestroy',
] as const;
export type HookName = (typeof HOOK_NAMES)[number];

export interface HookOptions {
  only?: WriteAction[];
  except?: WriteAction[];
}

/** A block, or the name of a Resource method; `around*` hooks take method names only. */
export type HookHandler = string | ((...args: never[]) => unknown);

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
