import test from 'ava';
import type { Sequelize } from 'sequelize';
import { InvalidQueryError } from '../../../core/index.ts';
import type { SequelizeScope } from '../../../plugins/sequelize/index.ts';
import { openDatabase, testDatabases } from '../../support/databases.ts';
import { definePeople, personResource } from '../../support/people.ts';

for (const db of testDatabases()) {
  let sequelize: Sequelize;
  let People: ReturnType<typeof personResource>;
  const queries: string[] = [];

  test.before(async () => {
    sequelize = await openDatabase(db, 'sorts_pages_stats', { logging: (sql) => void queries.push(sql) });
    People = personResource(await definePeople(sequelize));
  });
  test.after.always(async () => {
    await sequelize?.close();
  });

  const names = async (resource: typeof People, params: Record<string, unknown>) =>
    ((await resource.all(params).data) as Array<{ name: string }>).map((r) => r.name);

  test.serial(`${db.name}: sort ascending, descending and by several columns`, async (t) => {
    t.deepEqual(await names(People, { sort: 'age', filter: { age: { gte: 0 } } }), ['ada', "O'Brien", 'Ada', 'back\\slash', '100% Pure']);
    t.deepEqual(await names(People, { sort: '-age', filter: { age: { gte: 0 } } }), ['100% Pure', 'back\\slash', 'Ada', "O'Brien", 'ada']);
    t.deepEqual(await names(People, { sort: 'level,-id' }), ['snake_case', 'ada', 'back\\slash', '100% Pure', "O'Brien", 'Ada']);
    t.deepEqual(await names(People, { sort: ['-level', 'id'] }), ['Ada', "O'Brien", '100% Pure', 'back\\slash', 'ada', 'snake_case']);
  });

  test.serial(`${db.name}: an unknown sort is a 400 naming the sortable attributes`, async (t) => {
    const error = await t.throwsAsync(People.all({ sort: '-height' }).data, { instanceOf: InvalidQueryError });
    t.is(error?.status, 400);
    t.is(error?.parameter, 'sort');
    t.regex(error!.message, /Unknown sort "height" on people; sortable: id, name/);
  });

  test.serial(`${db.name}: custom sorts, sort-only attributes, direction limits and defaultSort`, async (t) => {
    class Sorted extends People {
      static {
        this.type = 'people';
        this.defaultSort = [{ rating: 'desc' }];
        this.sort('name_length', 'integer', (scope: SequelizeScope, direction) =>
          scope.order([sequelize.fn('length', sequelize.col('Person.name')), direction]));
        this.sort('age', { only: 'asc' });
        this.attribute('nickname', 'string', { sortable: false });
      }
    }
    // PostgreSQL sorts NULLs first when descending, the others last: compare only non-null ratings
    t.deepEqual(await names(Sorted, { filter: { rating: { gte: 0 } } }), ["O'Brien", 'Ada', 'ada', 'back\\slash', '100% Pure']);
    t.deepEqual((await names(Sorted, { sort: 'name_length' })).slice(0, 2), ['Ada', 'ada']);
    const desc = await t.throwsAsync(Sorted.all({ sort: '-age' }).data);
    t.like(desc, { status: 400, code: 'sort_direction_not_allowed' });
    const unsortable = await t.throwsAsync(Sorted.all({ sort: 'nickname' }).data);
    t.like(unsortable, { status: 400, code: 'unknown_sort' });
    const filterOnly = await t.throwsAsync(Sorted.all({ filter: { name_length: 3 } }).data);
    t.like(filterOnly, { status: 400, code: 'unknown_filter' });
  });

  test.serial(`${db.name}: pages by size and number, 20 by default, and past the end is empty`, async (t) => {
    t.deepEqual(await names(People, { page: { size: 2 } }), ['Ada', 'ada']);
    t.deepEqual(await names(People, { page: { size: '2', number: '3' } }), ['back\\slash', "O'Brien"]);
    t.deepEqual(await names(People, { page: { size: 4, number: 9 } }), []);
    t.is((await names(People, {})).length, 6);
    class Small extends People {
      static {
        this.type = 'people';
        this.defaultPageSize = 4;
        this.maxPageSize = 5;
      }
    }
    t.is((await names(Small, {})).length, 4);
    const tooBig = await t.throwsAsync(Small.all({ page: { size: 6 } }).data);
    t.like(tooBig, { status: 400, code: 'page_size_exceeded', parameter: 'page[size]' });
    const negative = await t.throwsAsync(People.all({ page: { number: 0 } }).data);
    t.like(negative, { status: 400, parameter: 'page[number]' });
    // @ts-expect-error a page size is a number; a JavaScript caller's 'ten' is refused at run time
    const notNumber = await t.throwsAsync(People.all({ page: { size: 'ten' } }).data);
    t.like(notNumber, { status: 400, parameter: 'page[size]' });
    t.deepEqual(await names(People, { page: { size: 1000, number: 9_000_000_000_000 } }), []);
    const unreachable = await t.throwsAsync(People.all({ page: { size: 1000, number: Number.MAX_SAFE_INTEGER } }).data);
    t.like(unreachable, { status: 400, code: 'invalid_page', parameter: 'page[number]' });
  });

  test.serial(`${db.name}: regression: fuzz seed 20261127 — page[size][toString]=1 (an object with its own toString) is a 400, not a 500`, async (t) => {
    for (const size of [{ toString: '1' }, Object.assign(Object.create(null), { eq: '1' }), ['1']]) {
      const error = await t.throwsAsync(People.all({ page: { size } }).data);
      t.like(error, { status: 400, code: 'invalid_page', parameter: 'page[size]' });
    }
  });

  test.serial(`${db.name}: the default maximum page size is 1000`, async (t) => {
    t.is((await names(People, { page: { size: 1000 } })).length, 6);
    await t.throwsAsync(People.all({ page: { size: 1001 } }).data, { message: /above the maximum of 1000/ });
  });

  test.serial(`${db.name}: page[size]=0 runs no row query but still computes stats`, async (t) => {
    queries.length = 0;
    const proxy = People.all({ page: { size: 0 }, stats: { total: 'count' } });
    t.deepEqual(await proxy.data, []);
    t.deepEqual(await proxy.stats, { total: { count: 6 } });
    t.is(queries.length, 1);
    t.regex(queries[0]!, /count/i);
  });

  test.serial(`${db.name}: a custom pagination block replaces the adapter's`, async (t) => {
    class Reversed extends People {
      static {
        this.type = 'people';
        this.paginate((scope: SequelizeScope, number: number, size: number) => scope.limit(size).offset(number * size));
      }
    }
    t.deepEqual(await names(Reversed, { page: { size: 2, number: 1 } }), ['100% Pure', 'snake_case']);
  });

  test.serial(`${db.name}: stats count the filtered, unpaginated records`, async (t) => {
    const stats = await People.all({ filter: { active: true }, page: { size: 1 }, stats: { total: 'count' } }).stats;
    t.deepEqual(stats, { total: { count: 4 } });
  });

  test.serial(`${db.name}: sum, average, maximum and minimum, several at once`, async (t) => {
    class WithStats extends People {
      static {
        this.type = 'people';
        this.stat({ age: ['sum', 'average', 'maximum', 'minimum'], salary: ['maximum'] });
      }
    }
    const stats = await WithStats.all({ stats: { age: 'sum,average,maximum,minimum', salary: 'maximum' }, filter: { active: true } }).stats;
    t.deepEqual(stats, { age: { sum: 156, average: 39, maximum: 50, minimum: 29 }, salary: { maximum: 1000 } });
  });

  test.serial(`${db.name}: a custom calculation receives the scope and the attribute`, async (t) => {
    class WithMedian extends People {
      static {
        this.type = 'people';
        this.stat('age', {
          oldest_name: async (scope: SequelizeScope, attribute: string) => {
            const row = await scope.model.findOne({ ...scope.findOptions, order: [[attribute, 'DESC']] });
            return (row as unknown as { name: string } | null)?.name;
          },
        });
      }
    }
    const stats = await WithMedian.all({ filter: { age: { lt: 45 } }, stats: { age: 'oldest_name' } }).stats;
    t.deepEqual(stats, { age: { oldest_name: 'back\\slash' } });
  });

  test.serial(`${db.name}: no count query runs unless a stat asks for one`, async (t) => {
    queries.length = 0;
    await People.all({ page: { size: 2 } }).data;
    t.is(queries.length, 1);
    t.notRegex(queries[0]!, /count\(/i);
  });

  test.serial(`${db.name}: unknown stats and calculations are 400s`, async (t) => {
    t.like(await t.throwsAsync(People.all({ stats: { height: 'sum' } }).data), { status: 400, parameter: 'stats[height]', code: 'unknown_stat' });
    t.like(await t.throwsAsync(People.all({ stats: { total: 'sum' } }).data), { status: 400, parameter: 'stats[total]' });
  });
}
