import test from 'ava';
import { Op, type Sequelize } from 'sequelize';
import { Types, TypeCoercionError, withContext, type TypeName } from '../../../core/index.ts';
import type { SequelizeScope } from '../../../plugins/sequelize/index.ts';
import { openDatabase, testDatabases } from '../../support/databases.ts';
import { definePeople, personResource } from '../../support/people.ts';

for (const db of testDatabases()) {
  let sequelize: Sequelize;
  let People: ReturnType<typeof personResource>;

  test.before(async () => {
    sequelize = await openDatabase(db, 'filter_options');
    People = personResource(await definePeople(sequelize));
  });
  test.after.always(async () => {
    await sequelize?.close();
  });

  const names = async (resource: typeof People, filter: Record<string, unknown>) =>
    ((await resource.all({ filter }).data) as Array<{ name: string }>).map((r) => r.name);

  test(`${db.name}: only and except narrow the type's default operators`, async (t) => {
    class Narrow extends People {
      static {
        this.type = 'people';
        this.filter('name', { only: ['eq', 'prefix'] });
        this.filter('age', { except: ['gt', 'not_gt'] });
      }
    }
    t.deepEqual(await names(Narrow, { name: { prefix: 'O' } }), ["O'Brien"]);
    t.like(await t.throwsAsync(names(Narrow, { name: { suffix: 'a' } })), { status: 400, code: 'unknown_operator', parameter: 'filter[name][suffix]' });
    t.like(await t.throwsAsync(names(Narrow, { age: { gt: 3 } })), { status: 400, code: 'unknown_operator' });
    t.deepEqual(await names(Narrow, { age: { lt: 21 } }), ['ada']);
  });

  test(`${db.name}: a filter block defines custom operators and overrides built-in ones`, async (t) => {
    class Custom extends People {
      static {
        this.type = 'people';
        this.filter('name', {
          eq: (scope: SequelizeScope, values: string[]) => scope.where({ nickname: { [Op.in]: values } }),
          longer_than: (scope: SequelizeScope, values: string[]) =>
            scope.where(sequelize.where(sequelize.fn('length', sequelize.col('Person.name')), { [Op.gt]: Number(values[0]) })),
        });
      }
    }
    t.deepEqual(await names(Custom, { name: 'obi' }), ["O'Brien"]);
    t.deepEqual(await names(Custom, { name: { longer_than: '9' } }), ['snake_case', 'back\\slash']);
    t.deepEqual(await names(Custom, { name: { prefix: 's' } }), ['snake_case'], 'other defaults remain');
  });

  test(`${db.name}: a filter-only attribute filters but never renders`, async (t) => {
    class FilterOnly extends People {
      static {
        this.type = 'people';
        this.filter('level_code', 'integer', {}, {
          eq: (scope: SequelizeScope, values: number[]) => scope.where({ level: { [Op.in]: values } }),
        });
      }
    }
    const records = await FilterOnly.all({ filter: { level_code: 3 } }).toJsonapi();
    t.deepEqual((records.data as Array<{ id: string }>).map((d) => d.id), ['1', '6']);
    t.false('level_code' in (records.data as Array<{ attributes: object }>)[0]!.attributes);
  });

  test(`${db.name}: allow rejects other values; deny (and its alias reject) refuses listed ones`, async (t) => {
    class Lists extends People {
      static {
        this.type = 'people';
        this.filter('name', { allow: ['Ada', 'ada'] });
        this.filter('age', { deny: [36] });
        this.filter('level', { reject: [2] });
      }
    }
    t.deepEqual(await names(Lists, { name: 'Ada' }), ['Ada', 'ada']);
    t.like(await t.throwsAsync(names(Lists, { name: 'Ada,Bob' })), { status: 400, code: 'value_not_allowed', parameter: 'filter[name]' });
    t.like(await t.throwsAsync(names(Lists, { age: '20,36' })), { status: 400, code: 'value_not_allowed' });
    t.like(await t.throwsAsync(names(Lists, { level: 2 })), { status: 400, message: '2 is denied for filter "level"' });
    t.deepEqual(await names(Lists, { level: 1 }), ['ada', 'snake_case']);
  });

  test(`${db.name}: single filters take one value as given; booleans are single by default`, async (t) => {
    class Single extends People {
      static {
        this.type = 'people';
        this.filter('name', { single: true }, {
          eq: (scope: SequelizeScope, value: string) => scope.where({ nickname: value }),
        });
      }
    }
    t.deepEqual(await names(Single, { name: 'countess' }), ['Ada']);
    t.deepEqual(await names(Single, { name: 'countess,obi' }), [], 'the comma is part of the value');
    t.like(await t.throwsAsync(names(People, { active: 'true,false' })), { status: 400, parameter: 'filter[active]' });
  });

  test(`${db.name}: required filters reject requests without them`, async (t) => {
    class Required extends People {
      static {
        this.type = 'people';
        this.filter('status', { required: true });
        this.attribute('level', 'integer_enum', { allow: [1, 2, 3], filterable: 'required' });
      }
    }
    t.like(await t.throwsAsync(names(Required, {})), { status: 400, code: 'required_filter', parameter: 'filter[status]' }, 'no filter at all');
    t.like(await t.throwsAsync(names(Required, { status: 'active' })), { status: 400, code: 'required_filter', parameter: 'filter[level]' });
    t.like(await t.throwsAsync(names(Required, { level: 1 })), { status: 400, code: 'required_filter', parameter: 'filter[status]' });
    t.deepEqual(await names(Required, { status: 'active', level: 2 }), ['100% Pure']);
    t.is(((await Required.find({ id: 1 }).data) as { name: string }).name, 'Ada', 'find needs no filter');
  });

  test(`${db.name}: dependent filters must come together`, async (t) => {
    class Dependent extends People {
      static {
        this.type = 'people';
        this.filter('born_on', { dependent: ['seen_at'] });
        this.filter('seen_at', { dependent: ['born_on'] });
      }
    }
    t.like(await t.throwsAsync(names(Dependent, { born_on: { gt: '1900-01-01' } })), {
      status: 400,
      code: 'dependent_filter',
      parameter: 'filter[born_on]',
      message: 'Filter "born_on" on people must be given together with "seen_at"',
    });
    t.deepEqual(await names(Dependent, { born_on: { gt: '1900-01-01' }, seen_at: { gt: '2022-06-01' } }), ["O'Brien"]);
  });

  test(`${db.name}: filtersAcceptNilByDefault makes null mean null everywhere`, async (t) => {
    class Nil extends People {
      static {
        this.type = 'people';
        this.filtersAcceptNilByDefault = true;
        this.attribute('age', 'integer');
      }
    }
    t.deepEqual(await names(Nil, { age: 'null' }), ['snake_case']);
    t.deepEqual(await names(Nil, { age: [null, 20] }), ['ada', 'snake_case']);
  });

  test(`${db.name}: a filterable guard decides per request`, async (t) => {
    class GuardedFilter extends People {
      static {
        this.type = 'people';
        this.attribute('salary', 'big_decimal', { filterable: 'isAdmin' });
      }
      isAdmin() {
        return this.context?.role === 'admin';
      }
    }
    t.like(await t.throwsAsync(names(GuardedFilter, { salary: { gt: 50 } })), { status: 400, code: 'unknown_filter' });
    t.deepEqual(await withContext({ role: 'admin' }, () => names(GuardedFilter, { salary: { gt: 500 } })), ['100% Pure']);
  });

  test(`${db.name}: explicit arrays, {{…}} and in-process arrays`, async (t) => {
    t.deepEqual(await names(People, { name: '[Ada,obi]' }), ['Ada', 'ada']);
    t.deepEqual(await names(People, { nickname: '{{under_score}},obi' }), ['snake_case', "O'Brien"]);
    t.deepEqual(await names(People, { age: [20, 50] }), ['ada', '100% Pure']);
  });

  test.serial(`${db.name}: a custom type registered by assignment works as a filter and attribute type`, async (t) => {
    // one type name per database: the suites of each database run concurrently in this process
    const cents = `cents_${db.name}`;
    Types[cents] = {
      params: (v) => {
        const n = Number(String(v).replace('$', '')) * 100;
        if (!Number.isFinite(n)) throw new TypeCoercionError(cents, v);
        return n;
      },
      read: (v) => `$${(Number(v) / 100).toFixed(2)}`,
      write: (v) => Number(v) * 100,
      kind: 'scalar',
      canonical_name: cents,
      description: 'Money in cents.',
    };
    try {
      class Money extends People {
        static {
          this.type = 'people';
          this.attribute('level', cents as TypeName);
        }
      }
      const document = await Money.all({ filter: { level: '$0.03' }, fields: { people: 'level' } }).toJsonapi();
      t.deepEqual((document.data as Array<{ attributes: object }>).map((d) => d.attributes), [{ level: '$0.03' }, { level: '$0.03' }]);
      t.like(await t.throwsAsync(names(Money, { level: 'lots' })), { status: 400, message: `"lots" should be type ${cents}` });
    } finally {
      delete Types[cents];
    }
  });

  // serial: it swaps a coercion every database shares
  test.serial(`${db.name}: a coercion replaced in place changes rendering`, async (t) => {
    const original = Types.string!.read;
    Types.string!.read = (v) => String(v).toUpperCase();
    try {
      const document = await People.find({ id: 2, fields: { people: 'name' } }).toJsonapi();
      t.deepEqual((document.data as { attributes: object }).attributes, { name: 'ADA' });
    } finally {
      Types.string!.read = original;
    }
  });
}
