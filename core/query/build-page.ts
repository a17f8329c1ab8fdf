import { InvalidQueryError } from '../errors/index.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { buildKeyset, CURSOR_PROFILE } from './build-keyset.ts';
import type { PageRequest, SortCondition } from './query-plan.ts';

/**
 * Validates `page[size]` and `page[number]` against the Resource's limits,
 * or, with `sorts`, `page[after]` / `page[before]` (cursor pagination).
 */
export function buildPage(resource: ResourceBase, page: Record<string, unknown>, path = 'page', sorts?: readonly SortCondition[]): PageRequest {
  const resourceClass = resource.resourceClass;
  const keyset = sorts ? buildKeyset(resource, page, sorts, path) : undefined;
  // the cursor profile asks for a positive size: an empty page has no cursors to go on from
  const size = page.size === undefined ? resourceClass.defaultPageSize : integer(page.size, `${path}[size]`, keyset ? 1 : 0);
  const number = page.number === undefined ? 1 : integer(page.number, `${path}[number]`, 1);
  if (size > resourceClass.maxPageSize) {
    throw new InvalidQueryError('page_size_exceeded', `Page size ${size} is above the maximum of ${resourceClass.maxPageSize}`, {
      parameter: `${path}[size]`,
      meta: { page: { maxSize: resourceClass.maxPageSize } },
      typeLink: `${CURSOR_PROFILE}max-size-exceeded`,
    });
  }
  if (keyset) return { size, number: 1, keyset };
  // the offset must stay an exact integer in SQL text: 9007199254740991 pages of 1000 would not
  if ((number - 1) * size > Number.MAX_SAFE_INTEGER) {
    throw new InvalidQueryError('invalid_page', `${path}[number] ${number} is beyond any page of size ${size}`, { parameter: `${path}[number]` });
  }
  return { size, number };
}

function integer(value: unknown, parameter: string, minimum: number): number {
  // a query object (`page[size][toString]=1`) is no number, and String() of it can throw
  const text = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
  const parsed = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(parsed) || parsed < minimum) {
    throw new InvalidQueryError('invalid_page', `${parameter} must be an integer of at least ${minimum}, got ${JSON.stringify(value)}`, { parameter });
  }
  return parsed;
}
