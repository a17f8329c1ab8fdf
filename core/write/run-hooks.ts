import { ResourceConfigurationError } from '../errors/index.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { appliesTo, type HookDefinition, type HookName, type WriteAction } from '../resource/hook-definition.ts';

function callable(resource: ResourceBase, definition: HookDefinition): (...args: unknown[]) => unknown {
  const { handler } = definition;
  if (typeof handler === 'function') return (...args) => (handler as (...a: unknown[]) => unknown).apply(resource, args);
  const method = (resource as unknown as Record<string, unknown>)[handler];
  if (typeof method !== 'function') {
    throw new ResourceConfigurationError(`${definition.hook} names "${handler}", which is not a method of ${resource.resourceClass.name}`);
  }
  return (...args) => (method as (...a: unknown[]) => unknown).apply(resource, args);
}

function hooksFor(resource: ResourceBase, hook: HookName, action: WriteAction): HookDefinition[] {
  return resource.resourceClass.config.hooks.filter((h) => h.hook === hook && appliesTo(h, action));
}

/** Runs every `hook` declared for `action`, in declaration order. */
export async function runHooks(resource: ResourceBase, hook: HookName, action: WriteAction, ...args: unknown[]): Promise<void> {
  for (const definition of hooksFor(resource, hook, action)) await callable(resource, definition)(...args);
}

/**
 * Wraps `inner` in every `around*` hook for `action`, the first declared
 * outermost. Each receives the hook's arguments and a `proceed` function that
 * runs the rest and resolves to its result.
 */
export function runAround<T>(resource: ResourceBase, hook: HookName, action: WriteAction, args: unknown[], inner: () => Promise<T>): Promise<T> {
  const wrapped = hooksFor(resource, hook, action).reduceRight<() => Promise<T>>((next, definition) => {
    return async () => {
      let result: T | undefined;
      let proceeded = false;
      const proceed = async () => {
        proceeded = true;
        result = await next();
        return result;
      };
      const returned = await callable(resource, definition)(...args, proceed);
      if (!proceeded) throw new ResourceConfigurationError(`${definition.hook} "${String(definition.handler)}" must call proceed()`);
      return (returned ?? result) as T;
    };
  }, inner);
  return wrapped();
}
