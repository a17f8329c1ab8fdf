import type { PageRequest } from '../query/query-plan.ts';
import type { PageCursors } from '../read/page-cursors.ts';
import type { PaginationLinks } from './document.ts';
import { encodeQueryValue } from './pagination-links.ts';

const PAGE_KEYS = new Set(['page[number]', 'page[size]', 'page[after]', 'page[before]']);

/**
 * `self`, `first`, `prev`, `next`, `last` for a cursor page: every original
 * parameter kept and `page` replaced. `first` and `last` are the empty
 * cursors (`page[after]=`, `page[before]=`); `prev` and `next` are null
 * where no page is known to be, as the cursor pagination profile asks.
 */
export function cursorLinks(url: string, query: string, page: PageRequest, cursors: PageCursors): PaginationLinks {
  let prefix = `${url}?`;
  for (const [key, value] of new URLSearchParams(query)) {
    if (!PAGE_KEYS.has(key)) prefix += `${encodeQueryValue(key)}=${encodeQueryValue(value)}&`;
  }
  const link = (name: 'after' | 'before', cursor: string) => `${prefix}page[size]=${page.size}&page[${name}]=${cursor}`;
  const keyset = page.keyset!;
  return {
    self: link(keyset.direction, keyset.token ?? ''),
    first: link('after', ''),
    prev: cursors.prev === null ? null : link('before', cursors.prev),
    next: cursors.next === null ? null : link('after', cursors.next),
    last: link('before', ''),
  };
}
