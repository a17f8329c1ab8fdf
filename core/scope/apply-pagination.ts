import type { KeysetKey } from '../adapter/adapter.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import type { PageRequest } from '../query/query-plan.ts';

export function applyPagination(resource: ResourceBase, scope: unknown, page: PageRequest | undefined): unknown {
  if (!page) return scope;
  if (page.keyset) return applyKeyset(resource, scope, page);
  const custom = resource.resourceClass.config.paginate;
  if (custom) return custom(scope as never, page.number, page.size, resource as never);
  return resource.adapter.paginate(scope, page.size, page.number);
}

/**
 * A cursor page is the keyset's order (reversed to read backwards from a
 * `before` position) and one record more than the page, which tells whether
 * another page follows without a count. load-records trims it and restores
 * the order.
 */
function applyKeyset(resource: ResourceBase, scope: unknown, page: PageRequest): unknown {
  const { keys, direction, values } = page.keyset!;
  const reading = direction === 'before' ? keys.map(reverse) : keys;
  // build-keyset refuses a cursor where the adapter has no keyset
  const ordered = resource.adapter.keyset!(scope, reading, values);
  return resource.adapter.paginate(ordered, page.size + 1, 1);
}

function reverse(key: KeysetKey): KeysetKey {
  return { column: key.column, direction: key.direction === 'asc' ? 'desc' : 'asc' };
}
