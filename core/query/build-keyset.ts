import type { KeysetKey } from '../adapter/adapter.ts';
import { InvalidQueryError } from '../errors/index.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { decodeCursor } from './cursor-token.ts';
import type { KeysetRequest, SortCondition } from './query-plan.ts';

/** The profile this cursor pagination follows; its errors link to it. */
export const CURSOR_PROFILE = 'https://jsonapi.org/profiles/ethanresnick/cursor-pagination/';

/**
 * `page[after]` / `page[before]`: cursor pagination over the request's sort
 * with the id as the last key. An empty cursor starts at the first
 * (`after`) or last (`before`) record. Undefined when neither is given.
 */
export function buildKeyset(resource: ResourceBase, page: Record<string, unknown>, sorts: readonly SortCondition[], path = 'page'): KeysetRequest | undefined {
  const direction = page.after !== undefined ? 'after' : page.before !== undefined ? 'before' : undefined;
  if (direction === undefined) return undefined;
  const parameter = `${path}[${direction}]`;
  if (page.after !== undefined && page.before !== undefined) {
    throw new InvalidQueryError('range_pagination_not_supported', `${path}[after] and ${path}[before] together (a range) are not supported; give one`, {
      parameter: `${path}[before]`,
      typeLink: `${CURSOR_PROFILE}range-pagination-not-supported`,
    });
  }
  if (page.number !== undefined) {
    throw new InvalidQueryError('invalid_page', `${parameter} pages by cursor, ${path}[number] by offset: give one of them`, { parameter });
  }
  const keys = keysOf(resource, sorts, parameter);
  const signature = `${resource.resourceClass.type}:${keys.map((k) => (k.direction === 'desc' ? '-' : '') + k.column).join(',')}`;
  const token = page[direction];
  if (token === '') return { keys, direction, signature };
  const values = decodeCursor(token, signature, keys.length, parameter);
  return { keys, direction, values, token: token as string, signature };
}

/** The sort's attributes, then the id (unique, so every position is exact). */
function keysOf(resource: ResourceBase, sorts: readonly SortCondition[], parameter: string): KeysetKey[] {
  const { config, type } = resource.resourceClass;
  // a custom `paginate` block reads pages by number, and an adapter may know no keyset
  if (config.paginate || !resource.adapter.keyset) {
    throw new InvalidQueryError('cursor_pagination_not_supported', `${type} pages by page[number] only`, { parameter });
  }
  const custom = sorts.find((s) => config.sorts.get(s.name)?.block);
  if (custom) {
    throw new InvalidQueryError('cursor_pagination_not_supported', `Sort "${custom.name}" on ${type} is computed by a block; cursors page by attribute sorts only`, {
      parameter: 'sort',
      typeLink: `${CURSOR_PROFILE}unsupported-sort`,
    });
  }
  const keys: KeysetKey[] = sorts.map((s) => ({ column: s.name, direction: s.direction }));
  return sorts.some((s) => s.name === 'id') ? keys : [...keys, { column: 'id', direction: 'asc' }];
}
