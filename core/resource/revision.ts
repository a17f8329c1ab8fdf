import { registryRevision } from './resource-registry.ts';

/**
 * Counts declarations. Anything derived from Resource configuration (resolved
 * filters, for one) is cached against it, so declaring something new — even
 * at runtime, as many_to_many's inverse filters are — refreshes the caches.
 */
let current = 0;

export function bumpRevision(): void {
  current++;
}

/** Moves whenever a declaration or a newly registered Resource could change what is derived from configuration. */
export function configurationRevision(): number {
  return current + registryRevision();
}

/**
 * A cache of values derived from Resource configuration, by an object key
 * and an optional second key. An entry is recomputed once a declaration or a
 * newly registered Resource could have changed it (both counters only grow,
 * so their sum moves whenever either does).
 */
export function configurationCache<K extends object, V>(): (key: K, variant: unknown, compute: () => V) => V {
  const entries = new WeakMap<K, Map<unknown, { revision: number; value: V }>>();
  return (key, variant, compute) => {
    const revision = configurationRevision();
    let byVariant = entries.get(key);
    if (!byVariant) entries.set(key, (byVariant = new Map()));
    const hit = byVariant.get(variant);
    if (hit && hit.revision === revision) return hit.value;
    const value = compute();
    byVariant.set(variant, { revision, value });
    return value;
  };
}
