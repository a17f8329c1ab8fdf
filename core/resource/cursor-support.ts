import type { ResourceBase } from './resource-base.ts';

/**
 * Whether a Resource's index takes `page[after]` and `page[before]`: its
 * adapter orders and positions by keyset, and no `paginate` block of its
 * own reads pages by number.
 */
export function supportsCursors(resource: typeof ResourceBase): boolean {
  const adapter = resource.adapter as { prototype?: { keyset?: unknown } } | undefined;
  return !resource.config.paginate && typeof adapter?.prototype?.keyset === 'function';
}
