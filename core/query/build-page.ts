import { InvalidQueryError } from '../errors/index.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import type { PageRequest } from './query-plan.ts';

/** Validates `page[size]` and `page[number]` against the Resource's limits. */
export function buildPage(resource: ResourceBase, page: Record<string, unknown>, path = 'page'): PageRequest {
  const resourceClass = resource.resourceClass;
  const size = page.size === undefined ? resourceClass.defaultPageSize : integer(page.size, `${path}[size]`, 0);
  const number = page.number === undefined ? 1 : integer(page.number, `${path}[number]`, 1);
  if (size > resourceClass.maxPageSize) {
    throw new InvalidQueryError('page_size_exceeded', `Page size ${size} is above the maximum of ${resourceClass.maxPageSize}`, {
      parameter: `${path}[size]`,
    });
  }
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
