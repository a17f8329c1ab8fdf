import type { PageRequest } from '../query/query-plan.ts';
import type { PaginationLinks } from './document.ts';

/**
 * `self`, `first`, `prev`, `next`, `last` for an index response: the request's
 * URL with every original parameter kept and `page` replaced. Brackets stay
 * readable, as clients of this framework family expect.
 */
export function paginationLinks(url: string, query: string, page: PageRequest, total: number): PaginationLinks {
  let prefix = `${url}?`;
  for (const [key, value] of new URLSearchParams(query)) {
    if (key !== 'page[number]' && key !== 'page[size]') prefix += `${encodeQueryValue(key)}=${encodeQueryValue(value)}&`;
  }
  const size = `&page[size]=${page.size}`;
  const link = (number: number) => `${prefix}page[number]=${number}${size}`;
  const lastNumber = Math.max(1, Math.ceil(total / page.size));
  const links: PaginationLinks = { self: link(page.number), first: link(1) };
  if (page.number > 1) links.prev = link(Math.min(page.number - 1, lastNumber));
  if (page.number < lastNumber) links.next = link(page.number + 1);
  links.last = link(lastNumber);
  return links;
}

/** A query string key or value, brackets and commas left readable. */
export function encodeQueryValue(value: string): string {
  if (/^[\w.,[\]-]*$/.test(value)) return value;
  return encodeURIComponent(value).replace(/%5B/gi, '[').replace(/%5D/gi, ']').replace(/%2C/gi, ',');
}
