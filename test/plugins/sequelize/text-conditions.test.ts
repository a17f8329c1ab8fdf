import test from 'ava';
import { Op, type Sequelize, type WhereOptions } from 'sequelize';
import { likeCondition, SequelizeScope, textCondition } from '../../../plugins/sequelize/index.ts';
import { openDatabase, testDatabases } from '../../support/databases.ts';
import { definePeople, personResource, type Person } from '../../support/people.ts';

/**
 * The helpers custom filters use to compare text the way the built-in
 * operators do: ignoring case (but `eql`), with LIKE wildcards matched
 * literally. The same names come back on every database.
 */
for (const db of testDatabases('text_conditions')) {
  let sequelize: Sequelize;
  let model: typeof Person;
  let People: ReturnType<typeof personResource>;

  test.before(async () => {
    sequelize = await openDatabase(db, 'text_conditions');
    model = await definePeople(sequelize);
    People = personResource(model);
  });
  test.after.always(async () => {
    await sequelize?.close();
  });

  /** The names a custom filter built on `condition` selects, through a Resource. */
  const names = async (condition: (scope: SequelizeScope) => WhereOptions) => {
    class Custom extends People {
      static {
        this.type = 'custom_people';
        this.filter('search', 'string', { only: ['eq'] }, { eq: (scope: SequelizeScope) => scope.where(condition(scope)) });
      }
    }
    const records = (await Custom.all({ filter: { search: 'x' }, sort: 'id' }).data) as Array<{ name: string }>;
    return records.map((r) => r.name);
  };

  test(`${db.name}: likeCondition escapes %, _, ! and backslash and ignores case`, async (t) => {
    t.deepEqual(await names((s) => likeCondition(s.model, 'name', 'prefix', '100%')), ['100% Pure']);
    t.deepEqual(await names((s) => likeCondition(s.model, 'name', 'prefix', '%')), []);
    t.deepEqual(await names((s) => likeCondition(s.model, 'name', 'match', 'E_C')), ['snake_case']);
    t.deepEqual(await names((s) => likeCondition(s.model, 'name', 'match', '_')), ['snake_case']);
    t.deepEqual(await names((s) => likeCondition(s.model, 'name', 'suffix', 'K\\SLASH')), ['back\\slash']);
    t.deepEqual(await names((s) => likeCondition(s.model, 'name', 'match', '!')), []);
  });

  test(`${db.name}: textCondition is the built-in operator on any attribute, any value matching`, async (t) => {
    t.deepEqual(await names((s) => textCondition(s.model, 'name', 'eq', ['ADA', "o'brien"])), ['Ada', 'ada', "O'Brien"]);
    t.deepEqual(await names((s) => textCondition(s.model, 'name', 'eql', 'Ada')), ['Ada']);
    t.deepEqual(await names((s) => textCondition(s.model, 'nickname', 'prefix', ['UNDER_', 'perc'])), ['100% Pure', 'snake_case']);
    t.deepEqual(await names((s) => textCondition(s.model, 'name', 'eq', [])), [], 'no value matches nothing');
    t.deepEqual(await names((s) => ({ [Op.not]: { [Op.and]: [textCondition(s.model, 'name', 'match', '%')] } })), ['Ada', 'ada', 'snake_case', 'back\\slash', "O'Brien"]);
  });
}

for (const db of testDatabases('long_text_filters')) {
  /** Values past SQLite's 50,000-byte LIKE pattern limit are still compared as data, never a database error. */
  test(`${db.name}: prefix, suffix and match take values longer than any LIKE pattern`, async (t) => {
    const sequelize = await openDatabase(db, 'long_text_filters');
    t.teardown(() => sequelize.close());
    const model = await definePeople(sequelize);
    const People = personResource(model);
    const long = '%é_'.repeat(20_000);
    const count = async (operator: string, value: string) => ((await People.all({ filter: { name: { [operator]: value } } }).data) as unknown[]).length;
    const total = await model.count();
    for (const operator of ['prefix', 'suffix', 'match']) {
      t.is(await count(operator, long), 0, operator);
      t.is(await count(`not_${operator}`, long), total, `not_${operator}`);
    }
    if (db.name === 'sqlite') {
      // only SQLite stores text this long in a STRING column, so only there can it match
      await sequelize.query(`INSERT INTO ${sequelize.getQueryInterface().quoteIdentifier(model.tableName)} (name, active, status, level) VALUES (?, 1, 'active', 1)`, { replacements: [`X${long}Y`] });
      t.is(await count('prefix', `x${long}`), 1);
      t.is(await count('suffix', `${long}Y`), 1);
      t.is(await count('match', long), 1);
      t.is(await count('prefix', long), 0);
    }
  });
}
