import type { JsonApiDocument, QueryParams, Resource } from '../core/index.ts';
import { count } from './host/plural.ts';

type ResourceClass = typeof Resource;

/**
 * How `mural query` learns the total: `asked` when the user's --stats asks
 * for `total=count`, `added` when it adds that itself (the Resource's
 * built-in count: one COUNT over the filtered set), `unknown` when the
 * Resource has no such stat, or has replaced it with a calculation of its
 * own, which may cost anything.
 */
export type TotalSource = 'asked' | 'added' | 'unknown';

function asksCount(stats: QueryParams['stats']): boolean {
  const total = stats?.total;
  const names = typeof total === 'string' ? total.split(',') : Array.isArray(total) ? total : [];
  return names.includes('count');
}

/** Adds `stats[total]=count` to a table query when that is the Resource's built-in count; says where the total will come from. */
export function withTotal(resource: ResourceClass, params: QueryParams): TotalSource {
  if (asksCount(params.stats)) return 'asked';
  if (resource.config.stats.get('total')?.calculations.get('count') !== 'count') return 'unknown';
  const total = params.stats?.total;
  params.stats = { ...params.stats, total: typeof total === 'string' && total !== '' ? `${total},count` : 'count' };
  return 'added';
}

export interface PageAsked {
  number?: unknown;
  size?: unknown;
  /** --after or --before: a cursor page, which has no number. */
  cursor: boolean;
}

/**
 * `3 of 13, page 1 of 5` (a cursor page: `3 of 13`); without a total,
 * `3 records, page 1 (no total: …)`. A total the command added itself is
 * taken out of the document's stats, which then show only what was asked.
 */
export function pageSummary(document: JsonApiDocument, resource: ResourceClass, source: TotalSource, page: PageAsked): string {
  const shown = Array.isArray(document.data) ? document.data.length : document.data ? 1 : 0;
  const stats = document.meta.stats as Record<string, Record<string, unknown>> | undefined;
  const total = stats?.total?.count;
  if (source === 'added' && stats?.total) {
    delete stats.total.count;
    if (Object.keys(stats.total).length === 0) delete stats.total;
    if (Object.keys(stats).length === 0) delete document.meta.stats;
  }
  const number = page.number === undefined ? 1 : Number(page.number);
  if (typeof total !== 'number') {
    const where = page.cursor ? '' : `, page ${number}`;
    return `${count(shown, 'record')}${where} (no total: ${resource.type} has no built-in count stat to ask)`;
  }
  if (page.cursor || total === 0) return `${shown} of ${total}`;
  const size = page.size === undefined ? resource.defaultPageSize : Number(page.size);
  const pages = Math.max(1, Math.ceil(total / size));
  if (number > pages) return `${shown} of ${total}: page ${number} is past the last page, ${pages}`;
  return `${shown} of ${total}, page ${number} of ${pages}`;
}
