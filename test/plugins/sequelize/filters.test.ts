import test from 'ava';
import type { Sequelize } from 'sequelize';
import { openDatabase, testDatabases } from '../../support/databases.ts';
import { definePeople, personResource } from '../../support/people.ts';

/**
 * The relational semantics of every built-in operator, on every database the
 * suite is given: the same query must return the same names everywhere.
 */
for (const db of testDatabases()) {
  let sequelize: Sequelize;
  let People: ReturnType<typeof personResource>;

  test.before(async () => {
    sequelize = await openDatabase(db, 'filters');
    People = personResource(await definePeople(sequelize));
  });
  test.after.always(async () => {
    await sequelize?.close();
  });

  const names = async (filter: Record<string, unknown>) => {
    const records = (await People.all({ filter, sort: 'id' }).data) as Array<{ name: string }>;
    return records.map((r) => r.name);
  };

  test(`${db.name}: string eq ignores case and takes several values`, async (t) => {
    t.deepEqual(await names({ name: 'ADA' }), ['Ada', 'ada']);
    t.deepEqual(await names({ name: 'ada,obi,o\'brien' }), ['Ada', 'ada', "O'Brien"]);
  });

  test(`${db.name}: eql is case-sensitive`, async (t) => {
    t.deepEqual(await names({ name: { eql: 'Ada' } }), ['Ada']);
    t.deepEqual(await names({ name: { not_eql: 'Ada' } }), ['ada', '100% Pure', 'snake_case', 'back\\slash', "O'Brien"]);
  });

  test(`${db.name}: not_eq excludes every case variant`, async (t) => {
    t.deepEqual(await names({ name: { not_eq: 'ada' } }), ['100% Pure', 'snake_case', 'back\\slash', "O'Brien"]);
  });

  test(`${db.name}: prefix, suffix and match ignore case`, async (t) => {
    t.deepEqual(await names({ name: { prefix: 'A' } }), ['Ada', 'ada']);
    t.deepEqual(await names({ name: { suffix: 'IEN' } }), ["O'Brien"]);
    t.deepEqual(await names({ name: { match: 'AKE_C' } }), ['snake_case']);
    t.deepEqual(await names({ name: { not_prefix: 'a' } }), ['100% Pure', 'snake_case', 'back\\slash', "O'Brien"]);
  });

  test(`${db.name}: %, _ and backslash in values match literally`, async (t) => {
    t.deepEqual(await names({ name: { match: '%' } }), ['100% Pure']);
    t.deepEqual(await names({ name: { match: '_' } }), ['snake_case']);
    t.deepEqual(await names({ name: { match: '\\' } }), ['back\\slash']);
    t.deepEqual(await names({ name: { prefix: '100%' } }), ['100% Pure']);
    t.deepEqual(await names({ name: { match: 'k\\s' } }), ['back\\slash']);
    t.deepEqual(await names({ name: { match: '!' } }), []);
  });

  test(`${db.name}: integer comparisons, ANDed when combined`, async (t) => {
    t.deepEqual(await names({ age: { gt: 36 } }), ['100% Pure', 'back\\slash']);
    t.deepEqual(await names({ age: { gte: 36 } }), ['Ada', '100% Pure', 'back\\slash']);
    t.deepEqual(await names({ age: { lt: 29 } }), ['ada']);
    t.deepEqual(await names({ age: { lte: 29 } }), ['ada', "O'Brien"]);
    t.deepEqual(await names({ age: { gte: 29, lt: 41 } }), ['Ada', "O'Brien"]);
    t.deepEqual(await names({ age: '20,50' }), ['ada', '100% Pure']);
    t.deepEqual(await names({ age: { not_eq: 36 } }), ['ada', '100% Pure', 'back\\slash', "O'Brien"]);
  });

  test(`${db.name}: big_decimal, float, date and datetime compare by value`, async (t) => {
    t.deepEqual(await names({ salary: { gt: '70' } }), ['Ada', '100% Pure', 'back\\slash']);
    t.deepEqual(await names({ salary: '70.03' }), ['Ada']);
    t.deepEqual(await names({ rating: { gte: 4.5 } }), ['Ada', "O'Brien"]);
    t.deepEqual(await names({ born_on: { lt: '1971-01-01' } }), ['Ada', '100% Pure']);
    t.deepEqual(await names({ born_on: '2001-05-01' }), ['ada']);
    t.deepEqual(await names({ seen_at: { gte: '2022-01-01T00:00:00Z' } }), ['back\\slash', "O'Brien"]);
  });

  test(`${db.name}: boolean eq`, async (t) => {
    t.deepEqual(await names({ active: 'false' }), ['ada', 'snake_case']);
    t.deepEqual(await names({ active: true }), ['Ada', '100% Pure', 'back\\slash', "O'Brien"]);
  });

  test(`${db.name}: uuid eq is exact`, async (t) => {
    t.deepEqual(await names({ token: '0f8fad5b-d9cb-469f-a165-70867728950e' }), ['Ada']);
    t.deepEqual(await names({ token: '0F8FAD5B-D9CB-469F-A165-70867728950E' }), []);
  });

  test(`${db.name}: enums filter by their allowed values`, async (t) => {
    t.deepEqual(await names({ status: 'pending' }), ['snake_case']);
    t.deepEqual(await names({ level: { not_eq: '1,2' } }), ['Ada', "O'Brien"]);
  });

  test(`${db.name}: null matches only with allowNil, as IS NULL`, async (t) => {
    t.deepEqual(await names({ nickname: 'null' }), []);
    class Lenient extends People {
      static {
        this.type = 'people';
        this.filter('nickname', { allowNil: true });
      }
    }
    const rows = (await Lenient.all({ filter: { nickname: 'null' } }).data) as Array<{ name: string }>;
    t.deepEqual(rows.map((r) => r.name), ['ada']);
    const others = (await Lenient.all({ filter: { nickname: { not_eq: 'null' } } }).data) as unknown[];
    t.is(others.length, 5);
  });
}
