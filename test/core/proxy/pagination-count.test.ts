import test from 'ava';
import type { PaginationLinks } from '../../../core/index.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, type Directory } from '../../support/directory.ts';

/**
 * The count behind pagination links: alongside the page query where the
 * database reads through a pool, with or without includes; after the page,
 * and only for a full page, where one connection queues every read, until
 * the same query's last page needed its count: then beside the page there too.
 */
for (const db of testDatabases('pagination_count')) {
  let dir: Directory;
  test.before(async () => {
    dir = await openDirectory(db, 'pagination_count', 50);
  });
  test.after.always(async () => dir?.sequelize.close());

  const pooled = db.name !== 'sqlite';
  const isCount = (sql: string) => /count\(\*\)/i.test(sql);
  const page = async (query: string, params: Record<string, unknown>) => {
    dir.resetQueries();
    const request = { path: '/api/v1/employees', query, action: 'index' as const };
    const document = await dir.resources.EmployeeResource.all(params, undefined, { request }).toJsonapi();
    return { links: document.links as PaginationLinks, queries: [...dir.queries] };
  };

  // when the count starts, relative to the page query's answer
  const countTimeline = async (query: string, params: Record<string, unknown>) => {
    const adapter = dir.resources.EmployeeResource.adapterInstance();
    const events: string[] = [];
    const { resolve, count } = adapter;
    let pageQuery = true;
    adapter.resolve = (...args: Parameters<typeof resolve>) => {
      const first = pageQuery;
      pageQuery = false;
      const answer = resolve.apply(adapter, args);
      return first ? answer.finally(() => void events.push('page answered')) : answer;
    };
    adapter.count = (...args: Parameters<typeof count>) => (events.push('count started'), count.apply(adapter, args));
    try {
      return { ...(await page(query, params)), events };
    } finally {
      delete (adapter as Partial<typeof adapter>).resolve;
      delete (adapter as Partial<typeof adapter>).count;
    }
  };

  test.serial(`${db.name}: a full page with includes counts ${pooled ? 'before the page query answers' : 'after the page query'}`, async (t) => {
    const { links, queries, events } = await countTimeline('include=positions&page[size]=10', { include: 'positions', page: { size: 10 } });
    t.true(links.last!.endsWith('page[number]=5&page[size]=10'));
    t.is(queries.filter(isCount).length, 1);
    t.deepEqual(events, pooled ? ['count started', 'page answered'] : ['page answered', 'count started']);
    t.is(queries.findIndex(isCount), pooled ? 1 : 2, pooled ? 'second: beside the page' : 'third: after the page and the sideload it started');
  });

  test.serial(`${db.name}: a full page without includes counts ${pooled ? 'before the page query answers' : 'after it'}`, async (t) => {
    const { links, queries, events } = await countTimeline('page[size]=10', { page: { size: 10 } });
    t.true(links.last!.endsWith('page[number]=5&page[size]=10'));
    t.deepEqual(queries.map(isCount), [false, true]);
    t.deepEqual(events, pooled ? ['count started', 'page answered'] : ['page answered', 'count started']);
  });

  test.serial(`${db.name}: a short page tells its own total${pooled ? ', whatever the early count says' : ' and counts nothing'}`, async (t) => {
    const { links, queries } = await page('filter[id]=1,2,3&page[size]=10', { filter: { id: '1,2,3' }, page: { size: 10 } });
    t.true(links.last!.endsWith('page[number]=1&page[size]=10'));
    t.is(queries.filter(isCount).length, pooled ? 1 : 0);
  });

  test.serial(`${db.name}: a short page with includes tells its own total${pooled ? ', whatever the early count says' : ' and counts nothing'}`, async (t) => {
    const { links, queries } = await page('include=positions&filter[id]=1,2,3&page[size]=10', { include: 'positions', filter: { id: '1,2,3' }, page: { size: 10 } });
    t.true(links.last!.endsWith('page[number]=1&page[size]=10'));
    t.is(queries.filter(isCount).length, pooled ? 1 : 0);
  });

  test.serial(`${db.name}: stats[total]=count is the one count, on every database`, async (t) => {
    const { links, queries } = await page('stats[total]=count&page[size]=10', { stats: { total: 'count' }, page: { size: 10 } });
    t.true(links.last!.endsWith('page[number]=5&page[size]=10'));
    t.is(queries.filter(isCount).length, 1);
  });

  test.serial(`${db.name}: a query whose last page needed its count counts beside the page the next time`, async (t) => {
    const first = await countTimeline('page[size]=7', { page: { size: 7 } });
    const second = await countTimeline('page[size]=7', { page: { size: 7 } });
    t.deepEqual(first.events, pooled ? ['count started', 'page answered'] : ['page answered', 'count started']);
    t.deepEqual(second.events, ['count started', 'page answered']);
    t.deepEqual(second.links, first.links);
    t.is(second.queries.filter(isCount).length, 1);
  });

  test.serial(`${db.name}: a query whose last page was short ${pooled ? 'counts early as always' : 'never counts for nothing'}`, async (t) => {
    for (let i = 0; i < 3; i++) {
      const { links, queries } = await page('filter[id]=4,5,6&page[size]=9', { filter: { id: '4,5,6' }, page: { size: 9 } });
      t.true(links.last!.endsWith('page[number]=1&page[size]=9'));
      t.is(queries.filter(isCount).length, pooled ? 1 : 0);
    }
  });
}
