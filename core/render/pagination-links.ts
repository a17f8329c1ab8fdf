import type { PageRequest } from '../query/query-plan.ts';
import type { PaginationLinks } from './document.ts';

/**
 * `self`, `first`, `prev`, `next`, `last` for an index response: the request's
 * URL with every original parameter kept and `page` replaced. Brackets stay
 * readable, as clients of this framework family expect.
 */
export function paginationLinks(url: string, query: string, page: PageRequest, total: number): PaginationLinks {
  const kept = [...new URLSearchParams(query)].filter(([key]) => key !== 'page[number]' && key !== 'page[size]');
  const link = (number: number) => {
    const pairs = [...kept, ['page[number]', String(number)], ['page[size]', String(page.size)]];
    return `${url}?${pairs.map(([k, v]) => `${encode(k!)}=${encode(v!)}`).join('&')}`;
  };
  const lastNumber = Math.max(1, Math.ceil(total / page.size));
  const links: PaginationLinks = { self: link(page.number), first: link(1) };
  if (page.number > 1) links.prev = link(Math.min(page.number - 1, lastNumber));
  if (page.number < lastNumber) links.next = link(page.number + 1);
  links.last = link(lastNumber);
  return links;
}

function encode(value: string): string {
  return encodeURIComponent(value).replace(/%5B/gi, '[').replace(/%5D/gi, ']').replace(/%2C/gi, ',');
}
