import test from 'ava';
import type { Sequelize } from 'sequelize';
import { RecordNotFound, withContext } from '../../../core/index.ts';
import type { SequelizeScope } from '../../../plugins/sequelize/index.ts';
import { openDatabase, testDatabases } from '../../support/databases.ts';
import { definePeople, personResource } from '../../support/people.ts';

for (const db of testDatabases()) {
  let sequelize: Sequelize;
  let People: ReturnType<typeof personResource>;

  test.before(async () => {
    sequelize = await openDatabase(db, 'rendering');
    People = personResource(await definePeople(sequelize));
  });
  test.after.always(async () => {
    await sequelize?.close();
  });

  test(`${db.name}: every type renders to its JSON form, ids as strings, in declaration order`, async (t) => {
    const document = await People.find({ id: 1 }).toJsonapi();
    t.deepEqual(document, {
      data: {
        id: '1',
        type: 'people',
        attributes: {
          name: 'Ada',
          nickname: 'countess',
          age: 36,
          salary: '70.03',
          rating: 4.5,
          active: true,
          born_on: '1815-12-10',
          seen_at: '2020-01-01T10:00:00.000Z',
          token: '0f8fad5b-d9cb-469f-a165-70867728950e',
          status: 'active',
          level: 3,
          profile: { lang: 'en' },
        },
      },
      meta: {},
    });
    t.deepEqual(Object.keys((document.data as { attributes: object }).attributes), [
      'name', 'nickname', 'age', 'salary', 'rating', 'active', 'born_on', 'seen_at', 'token', 'status', 'level', 'profile',
    ]);
  });

  test(`${db.name}: big_decimal renders without trailing zeros on every database`, async (t) => {
    const document = await People.all({ filter: { name: 'O\'Brien,100% Pure' } }).toJsonapi();
    const salaries = (document.data as unknown as Array<{ attributes: { salary: string } }>).map((d) => d.attributes.salary);
    t.deepEqual(salaries, ['1000', '55.1']);
  });

  test(`${db.name}: fields[type] keeps only the named attributes; id and type always render`, async (t) => {
    const document = await People.all({ fields: { people: 'name,age' }, page: { size: 1 } }).toJsonapi();
    t.deepEqual(document.data, [{ id: '1', type: 'people', attributes: { name: 'Ada', age: 36 } }]);
    const unknown = await t.throwsAsync(People.all({ fields: { people: 'name,height' } }).toJsonapi());
    t.like(unknown, { status: 400, parameter: 'fields[people]' });
    const otherType = await People.all({ fields: { teams: 'whatever' }, page: { size: 1 } }).toJsonapi();
    t.truthy((otherType.data as Array<{ attributes: object }>)[0]!.attributes);
  });

  test(`${db.name}: extra attributes render only when asked for, and run their scope hook`, async (t) => {
    const seen: string[] = [];
    class WithExtra extends People {
      static {
        this.type = 'people';
        this.extraAttribute('shout', 'string', (person: { name: string }) => person.name.toUpperCase());
        this.onExtraAttribute('shout', (scope: SequelizeScope) => {
          seen.push('hook');
          return scope;
        });
      }
    }
    const plain = await WithExtra.find({ id: 1 }).toJsonapi();
    t.false('shout' in (plain.data as { attributes: object }).attributes);
    t.deepEqual(seen, []);
    const extra = await WithExtra.find({ id: 1, extra_fields: { people: 'shout' }, fields: { people: 'name' } }).toJsonapi();
    t.deepEqual((extra.data as { attributes: object }).attributes, { name: 'Ada', shout: 'ADA' });
    t.deepEqual(seen, ['hook']);
    const unknown = await t.throwsAsync(WithExtra.all({ extra_fields: { people: 'whisper' } }).data);
    t.like(unknown, { status: 400, parameter: 'extra_fields[people]' });
  });

  test(`${db.name}: a display block computes the value from the model, with the Resource as this`, async (t) => {
    class Display extends People {
      static {
        this.type = 'people';
        this.attribute('name', 'string', function (this: { context?: Record<string, unknown> }, person: { name: string; nickname: string | null }) {
          return `${person.name} (${person.nickname ?? '-'})${this.context?.suffix ?? ''}`;
        });
      }
    }
    const document = await withContext({ suffix: '!' }, () => Display.find({ id: 2, fields: { people: 'name' } }).toJsonapi());
    t.deepEqual((document.data as { attributes: object }).attributes, { name: 'ada (-)!' });
  });

  test(`${db.name}: readable guards: method names and functions, by arity`, async (t) => {
    const calls: string[] = [];
    class Guarded extends People {
      static {
        this.type = 'people';
        this.attribute('salary', 'big_decimal', { readable: 'isAdmin' });
        this.attribute('age', 'integer', { readable: (person: { active: boolean }) => person.active });
        this.attribute('nickname', 'string', {
          readable(this: Guarded, person: { id: number }, name: string) {
            calls.push(name);
            return person.id === 1;
          },
        });
      }
      isAdmin(): boolean {
        return this.context?.role === 'admin';
      }
    }
    const fields = { people: 'salary,age,nickname' };
    const guest = await Guarded.all({ fields, filter: { id: '1,2' } }).toJsonapi();
    t.deepEqual((guest.data as Array<{ attributes: object }>).map((d) => d.attributes), [{ age: 36, nickname: 'countess' }, {}]);
    t.deepEqual(calls, ['nickname', 'nickname']);
    const admin = await withContext({ role: 'admin' }, () => Guarded.find({ id: 2, fields }).toJsonapi());
    t.deepEqual((admin.data as { attributes: object }).attributes, { salary: '10.5' });
  });

  test(`${db.name}: resource-wide defaults apply to attributes declared after them`, async (t) => {
    class Quiet extends People {
      static {
        this.type = 'people';
        this.attributesReadableByDefault = false;
        this.attribute('name', 'string');
        this.attribute('age', 'integer', { readable: true });
      }
    }
    const document = await Quiet.find({ id: 1 }).toJsonapi();
    t.is((document.data as unknown as { attributes: { age: number } }).attributes.age, 36);
    t.false('name' in (document.data as { attributes: object }).attributes);
    t.true('nickname' in (document.data as { attributes: object }).attributes, 'declared before the default changed');
  });

  test(`${db.name}: find raises RecordNotFound for a missing id, and 400 for a malformed one`, async (t) => {
    const missing = await t.throwsAsync(People.find({ id: 999 }).data, { instanceOf: RecordNotFound });
    t.is(missing?.status, 404);
    const malformed = await t.throwsAsync(People.find({ id: 'abc' }).data);
    t.like(malformed, { status: 400 });
  });

  test(`${db.name}: a proxy is lazy, runs once, and iterates`, async (t) => {
    let resolved = 0;
    class Counting extends People {
      static {
        this.type = 'people';
      }
      override resolve(scope: unknown) {
        resolved++;
        return super.resolve(scope);
      }
    }
    const proxy = Counting.all({ filter: { active: false } });
    t.is(resolved, 0);
    const names: string[] = [];
    for await (const person of proxy) names.push((person as { name: string }).name);
    await proxy.data;
    await proxy.toJsonapi();
    t.deepEqual(names, ['ada', 'snake_case']);
    t.is(resolved, 1);
  });

  test(`${db.name}: a base scope given to all() replaces the Resource's`, async (t) => {
    const model = People.model as { findAll: unknown };
    const base = People.adapterInstance().baseScope(model) as SequelizeScope;
    const records = (await People.all({}, base.where({ level: 2 })).data) as Array<{ name: string }>;
    t.deepEqual(records.map((r) => r.name), ['100% Pure', 'back\\slash']);
  });

  test(`${db.name}: an overridden baseScope narrows every query`, async (t) => {
    class Active extends People {
      static {
        this.type = 'people';
      }
      override baseScope() {
        return (super.baseScope() as SequelizeScope).where({ active: true });
      }
    }
    t.deepEqual(await Active.all({ stats: { total: 'count' } }).stats, { total: { count: 4 } });
  });

  test(`${db.name}: toJson flattens records and toXml renders them as XML`, async (t) => {
    const json = await People.all({ fields: { people: 'name' }, page: { size: 2 }, stats: { total: 'count' } }).toJson();
    t.deepEqual(json, { data: [{ id: '1', name: 'Ada' }, { id: '2', name: 'ada' }], meta: { stats: { total: { count: 6 } } } });
    const xml = await People.find({ id: 6, fields: { people: 'name,age' } }).toXml();
    t.is(xml, `<?xml version="1.0" encoding="UTF-8"?>\n<response><data><id>6</id><name>O'Brien</name><age>29</age></data></response>\n`);
  });
}
