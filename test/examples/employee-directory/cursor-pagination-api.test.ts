import test from 'ava';
import { testDatabases } from '../../support/databases.ts';
import { directoryServer } from '../../support/directory-server.ts';

type Links = { self: string; first: string; prev?: string | null; next?: string | null; last?: string };
type Doc = { data: Array<{ id: string; attributes: Record<string, unknown>; meta?: { page: { cursor: string } } }>; links: Links; errors?: Array<{ code: string; source: { parameter: string }; meta?: unknown; links?: { type: string } }> };

const PROFILE = 'https://jsonapi.org/profiles/ethanresnick/cursor-pagination/';

/** Cursor pages over HTTP: links a client follows from one end to the other, and 400s a client can act on. */
for (const db of testDatabases()) {
  const { dir, client } = directoryServer(db, 'cursor_pagination_api', 25);
  const get = async (path: string) => {
    const response = await client.get(path);
    return { status: response.status, doc: response.body as Doc };
  };

  test.serial(`${db.name}: next links walk every record once, prev links walk back, and each page is one query`, async (t) => {
    const { doc: all } = await get('/api/v1/employees?sort=-age,last_name&page[size]=100');
    const expected = all.data.map((r) => r.id);
    const first = await get('/api/v1/employees?sort=-age,last_name&page[size]=10&page[after]=');
    t.deepEqual(first.doc.links, {
      self: '/api/v1/employees?sort=-age,last_name&page[size]=10&page[after]=',
      first: '/api/v1/employees?sort=-age,last_name&page[size]=10&page[after]=',
      prev: null,
      next: first.doc.links.next,
      last: '/api/v1/employees?sort=-age,last_name&page[size]=10&page[before]=',
    });
    const forward: string[] = [];
    let links: Links = first.doc.links;
    forward.push(...first.doc.data.map((r) => r.id));
    for (let guard = 0; links.next && guard < 10; guard++) {
      dir.resetQueries();
      const page = await get(links.next);
      t.is(dir.queries.length, 1, 'one SELECT, no COUNT');
      t.is(page.doc.links.self, links.next);
      forward.push(...page.doc.data.map((r) => r.id));
      links = page.doc.links;
    }
    t.is(links.next, null);
    t.deepEqual(forward.length, 25);
    // the same sort with the id tiebreak an offset read has, but NULL ages last (the lowest, descending) on every database
    t.deepEqual([...forward].sort(), [...expected].sort());
    const backward: string[][] = [];
    for (let guard = 0; links.prev && guard < 10; guard++) {
      const page = await get(links.prev);
      backward.unshift(page.doc.data.map((r) => r.id));
      links = page.doc.links;
    }
    t.is(links.prev, null);
    t.deepEqual([...backward.flat(), ...forward.slice(-5)], forward);
  });

  test.serial(`${db.name}: every record of a cursor page carries its own cursor, to page on from it either way`, async (t) => {
    const { doc } = await get('/api/v1/employees?sort=age&page[size]=6&page[after]=');
    const third = doc.data[2]!.meta!.page.cursor;
    const after = await get(`/api/v1/employees?sort=age&page[size]=3&page[after]=${third}`);
    t.deepEqual(after.doc.data.map((r) => r.id), doc.data.slice(3).map((r) => r.id));
    const before = await get(`/api/v1/employees?sort=age&page[size]=3&page[before]=${third}`);
    t.deepEqual(before.doc.data.map((r) => r.id), doc.data.slice(0, 2).map((r) => r.id));
    t.is(before.doc.links.prev, null, 'nothing before the first record');
    t.is(doc.data.at(-1)!.meta!.page.cursor, new URL(doc.links.next!, 'http://x').searchParams.get('page[after]') ?? '');
    const offset = await get('/api/v1/employees?sort=age&page[size]=6');
    t.true(offset.doc.data.every((r) => r.meta === undefined), 'offset pages carry no cursors');
  });

  test.serial(`${db.name}: filters, fields and includes ride along in every link; offset links are unchanged`, async (t) => {
    const { doc } = await get('/api/v1/employees?filter[age][gte]=30&fields[employees]=age&include=positions&page[size]=3&page[after]=');
    t.true(doc.links.next!.startsWith('/api/v1/employees?filter[age][gte]=30&fields[employees]=age&include=positions&page[size]=3&page[after]='));
    const next = await get(doc.links.next!);
    t.true(next.doc.data.every((r) => (r.attributes.age as number) >= 30));
    const offset = await get('/api/v1/employees?page[size]=10&page[number]=2');
    t.deepEqual(Object.keys(offset.doc.links), ['self', 'first', 'prev', 'next', 'last']);
    t.regex(offset.doc.links.next!, /page\[number\]=3&page\[size\]=10$/);
  });

  test.serial(`${db.name}: a related endpoint and a relationship endpoint page by cursor too`, async (t) => {
    const related = await get('/api/v1/departments/1/positions?page[size]=2&page[after]=');
    t.is(related.status, 200);
    t.regex(related.doc.links.next ?? '', /^\/api\/v1\/departments\/1\/positions\?page\[size\]=2&page\[after\]=/);
    const linkage = await get('/api/v1/departments/1/relationships/positions?page[size]=2&page[after]=');
    t.is(linkage.status, 200);
    t.is(linkage.doc.links.prev, null);
  });

  test.serial(`${db.name}: bad cursors and mixed pagination are 400s naming the parameter`, async (t) => {
    const cases: Array<[string, string, string]> = [
      ['page[after]=bogus', 'invalid_cursor', 'page[after]'],
      ['page[before]=bogus', 'invalid_cursor', 'page[before]'],
      ['page[after]=&page[number]=2', 'invalid_page', 'page[after]'],
      ['page[after]=&page[before]=', 'range_pagination_not_supported', 'page[before]'],
      ['page[after]=&page[size]=5000', 'page_size_exceeded', 'page[size]'],
      ['sort=name&page[after]=', 'cursor_pagination_not_supported', 'sort'],
    ];
    const { doc } = await get('/api/v1/employees?sort=age&page[size]=2&page[after]=');
    const ageCursor = new URL(doc.links.next!, 'http://x').searchParams.get('page[after]')!;
    cases.push([`sort=-age&page[after]=${ageCursor}`, 'invalid_cursor', 'page[after]']);
    for (const [query, code, parameter] of cases) {
      const { status, doc: error } = await get(`/api/v1/employees?${query}`);
      t.is(status, 400, query);
      t.like(error.errors![0], { code, source: { parameter } }, query);
    }
    // the profile's error types, as JSON:API 1.1 type links
    const { doc: tooBig } = await get('/api/v1/employees?page[after]=&page[size]=5000');
    t.like(tooBig.errors![0], { meta: { page: { maxSize: 1000 } }, links: { type: `${PROFILE}max-size-exceeded` } });
    const { doc: range } = await get('/api/v1/employees?page[after]=&page[before]=');
    t.deepEqual(range.errors![0]!.links, { type: `${PROFILE}range-pagination-not-supported` });
    const { doc: unsupported } = await get('/api/v1/employees?sort=name&page[after]=');
    t.deepEqual(unsupported.errors![0]!.links, { type: `${PROFILE}unsupported-sort` });
  });
}
