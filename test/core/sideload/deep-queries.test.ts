import test from 'ava';
import { Resource, type JsonApiDocument, type ResourceObject } from '../../../core/index.ts';
import { SequelizeAdapter } from '../../../plugins/sequelize/index.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, type Directory } from '../../support/directory.ts';

type Linkage = { type: string; id: string };
const data = (doc: JsonApiDocument) => doc.data as ResourceObject[];
const linked = (object: ResourceObject, name: string) => ((object.relationships![name] as { data: Linkage[] }).data ?? []).map((l) => l.id);

/** Filters, sorts, pages, stats and fieldsets aimed at included records. */
for (const db of testDatabases()) {
  let dir: Directory;
  test.before(async () => {
    dir = await openDirectory(db, 'deep_queries');
  });
  test.after.always(async () => dir?.sequelize.close());

  const titles = (doc: JsonApiDocument) => (doc.included ?? []).filter((i) => i.type === 'positions').map((i) => i.attributes.title);

  test(`${db.name}: filter[<relationship>.<attribute>] narrows the included records, never the parents`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const plain = await EmployeeResource.all({ include: 'positions', page: { size: 40 } }).toJsonapi();
    const deep = await EmployeeResource.all({ include: 'positions', page: { size: 40 }, filter: { 'positions.title': 'engineer' } }).toJsonapi();
    t.deepEqual(data(deep).map((e) => e.id), data(plain).map((e) => e.id));
    t.true(titles(deep).length > 0);
    t.true(titles(deep).every((title) => title === 'Engineer'));
    t.true(titles(plain).some((title) => title !== 'Engineer'));
  });

  test(`${db.name}: filter[<type>][<attribute>] does the same, with operators`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const doc = await EmployeeResource.all({ include: 'positions', page: { size: 40 }, filter: { positions: { rank: { gte: 8 } } } }).toJsonapi();
    const ranks = doc.included!.map((i) => i.attributes.rank as number);
    t.true(ranks.length > 0);
    t.true(ranks.every((rank) => rank >= 8));
  });

  test(`${db.name}: nested paths reach nested includes`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const doc = await EmployeeResource.all({ include: 'positions.department', filter: { 'positions.department.name': 'Design' }, page: { size: 50 } }).toJsonapi();
    const departments = doc.included!.filter((i) => i.type === 'departments');
    t.deepEqual([...new Set(departments.map((d) => d.attributes.name))], ['Design']);
    t.true(doc.included!.some((i) => i.type === 'positions' && (i.relationships!.department as { data: unknown }).data === null), 'positions in other departments link to nothing');
  });

  test.serial(`${db.name}: a relationship declared after a Resource was queried routes deep parameters too`, async (t) => {
    class Solo extends Resource {
      static {
        this.adapter = SequelizeAdapter;
        this.model = dir.models.Department;
        this.type = 'departments';
        this.attribute('name', 'string');
      }
    }
    const params = { filter: { positions: { title: 'Engineer' } } };
    t.like(await t.throwsAsync(Solo.all(params).data), { status: 400, parameter: 'filter[positions]' }, 'no relationship leads to positions yet');
    Solo.hasMany('positions', { resource: dir.resources.PositionResource });
    t.is(((await Solo.all(params).data) as unknown[]).length, 8, 'a deep filter without its include is ignored');
  });

  test(`${db.name}: a deep filter without its include is ignored`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const doc = await EmployeeResource.all({ filter: { 'positions.title': 'Engineer', positions: { rank: 3 } }, page: { size: 5 } }).toJsonapi();
    t.is(data(doc).length, 5);
    t.is(doc.included, undefined);
  });

  test(`${db.name}: sort=<type>.<attribute> orders each parent's included records`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const doc = await EmployeeResource.all({ include: 'positions', sort: '-positions.rank', page: { size: 40 } }).toJsonapi();
    const rankOf = new Map(doc.included!.map((p) => [p.id, p.attributes.rank as number]));
    for (const employee of data(doc)) {
      const ranks = linked(employee, 'positions').map((id) => rankOf.get(id)!);
      t.deepEqual(ranks, [...ranks].sort((a, b) => b - a));
    }
    const lastNames = data(doc).map((e) => String(e.attributes.last_name));
    t.deepEqual(lastNames, [...lastNames].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)), 'the parents keep their own order');
  });

  test.serial(`${db.name}: page[<type>][size] keeps at most n records per parent, in one query`, async (t) => {
    const { EmployeeResource } = dir.resources;
    dir.resetQueries();
    const doc = await EmployeeResource.all({ include: 'positions', sort: '-positions.rank', page: { size: 40, positions: { size: 1 } } }).toJsonapi();
    t.is(dir.queries.length, 2);
    const all = await dir.models.Position.findAll({ where: { employee_id: data(doc).map((e) => Number(e.id)) } });
    for (const employee of data(doc)) {
      const mine = linked(employee, 'positions');
      const theirs = all.filter((p) => String(p.employee_id) === employee.id);
      t.is(mine.length, Math.min(1, theirs.length));
      if (mine.length === 1) {
        const best = Math.max(...theirs.map((p) => p.rank ?? 0));
        t.is(doc.included!.find((p) => p.id === mine[0])!.attributes.rank, best);
      }
    }
  });

  test(`${db.name}: stats[<type>][<stat>] counts the included records`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const doc = await EmployeeResource.all({ include: 'positions', page: { size: 25 }, stats: { total: 'count', positions: { total: 'count' } } }).toJsonapi();
    const expected = await dir.models.Position.count({ where: { employee_id: data(doc).map((e) => Number(e.id)) } });
    t.deepEqual(doc.meta.stats, { total: { count: 300 }, positions: { total: { count: expected } } });
  });

  test(`${db.name}: fields and extra_fields apply per included type`, async (t) => {
    const { PositionResource } = dir.resources;
    const doc = await PositionResource.all({
      include: 'employee',
      page: { size: 3 },
      fields: { positions: 'title,employee', employees: 'first_name' },
      extra_fields: { employees: 'vacation_days' },
    }).toJsonapi();
    for (const position of data(doc)) {
      t.deepEqual(Object.keys(position.attributes), ['title']);
      t.deepEqual(Object.keys(position.relationships!), ['employee']);
    }
    for (const employee of doc.included!) t.deepEqual(Object.keys(employee.attributes), ['first_name', 'vacation_days']);
  });

  test(`${db.name}: an included relationship keeps its linkage even when fields leaves it out`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const doc = await EmployeeResource.find({ id: 1, include: 'positions', fields: { employees: 'first_name' } }).toJsonapi();
    t.deepEqual(Object.keys((doc.data as ResourceObject).relationships!), ['positions']);
  });

  test(`${db.name}: unknown includes, deep filters and too-deep includes are 400s`, async (t) => {
    const { EmployeeResource } = dir.resources;
    t.like(await t.throwsAsync(EmployeeResource.all({ include: 'friends' }).data), { status: 400, parameter: 'include', code: 'unknown_include' });
    t.like(await t.throwsAsync(EmployeeResource.all({ include: 'positions.boss' }).data), { status: 400, parameter: 'include' });
    t.like(await t.throwsAsync(EmployeeResource.all({ include: 'positions', filter: { 'positions.height': 3 } }).data), {
      status: 400,
      parameter: 'filter[positions.height]',
    });
    t.like(await t.throwsAsync(EmployeeResource.all({ include: 'positions', filter: { positions: { title: { near: 'x' } } } }).data), {
      status: 400,
      parameter: 'filter[positions][title][near]',
    });
    t.like(await t.throwsAsync(EmployeeResource.all({ include: 'positions', page: { positions: { size: 1001 } } }).data), {
      status: 400,
      parameter: 'page[positions][size]',
    });
    t.like(await t.throwsAsync(EmployeeResource.all({ include: 'positions.department.teams.department.positions.employee' }).data), {
      status: 400,
      code: 'include_too_deep',
    });
  });

  test(`${db.name}: the maximum include depth is configurable`, async (t) => {
    const { EmployeeResource } = dir.resources;
    class Shallow extends EmployeeResource {
      static {
        this.type = 'employees';
        this.maxIncludeDepth = 1;
      }
    }
    await t.notThrowsAsync(Shallow.find({ id: 1, include: 'positions' }).data);
    t.like(await t.throwsAsync(Shallow.find({ id: 1, include: 'positions.department' }).data), { status: 400, code: 'include_too_deep' });
  });
}

test('page[<type>][size] on a many_to_many is refused rather than ignored', async (t) => {
  const dir = await openDirectory({ name: 'sqlite', url: ':memory:' }, 'm2m_page', 10);
  try {
    const error = await t.throwsAsync(dir.resources.EmployeeResource.all({ include: 'teams', page: { teams: { size: 1 } } }).data);
    t.like(error, { status: 400, code: 'unsupported_page_size', parameter: 'page[teams][size]' });
  } finally {
    await dir.sequelize.close();
  }
});
