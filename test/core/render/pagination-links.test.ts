import test from 'ava';
import { paginationLinks } from '../../../core/render/pagination-links.ts';

test('pagination links keep other parameters, re-encoding only what a URL needs', (t) => {
  const query = 'filter[name]=Ada%20L%26co,Bob&sort=-id&page[number]=2&page[size]=10&fields[people]=name';
  const links = paginationLinks('/api/people', query, { number: 2, size: 10 }, 35);
  const base = '/api/people?filter[name]=Ada%20L%26co,Bob&sort=-id&fields[people]=name';
  t.deepEqual(links, {
    self: `${base}&page[number]=2&page[size]=10`,
    first: `${base}&page[number]=1&page[size]=10`,
    prev: `${base}&page[number]=1&page[size]=10`,
    next: `${base}&page[number]=3&page[size]=10`,
    last: `${base}&page[number]=4&page[size]=10`,
  });
});

test('a lone page has self, first and last only', (t) => {
  t.deepEqual(paginationLinks('/api/people', '', { number: 1, size: 10 }, 0), {
    self: '/api/people?page[number]=1&page[size]=10',
    first: '/api/people?page[number]=1&page[size]=10',
    last: '/api/people?page[number]=1&page[size]=10',
  });
});
