import test from 'ava';
import { configure, InvalidQueryError, type PageCursors } from '../../../core/index.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, type Directory } from '../../support/directory.ts';

type Row = { id: number; first_name: string; last_name: string; age: number | null; created_at: Date };
type Key = { name: keyof Row; desc: boolean };

/** The order a cursor walk must give: NULL below every value, the id breaking ties. */
function expectedOrder(rows: readonly Row[], sort: string): number[] {
  const keys: Key[] = sort.split(',').map((entry) => ({ name: entry.replace(/^-/, '') as keyof Row, desc: entry.startsWith('-') }));
  if (!keys.some((k) => k.name === 'id')) keys.push({ name: 'id', desc: false });
  const rank = (value: unknown) => (value instanceof Date ? value.getTime() : value);
  const compare = (a: Row, b: Row) => {
    for (const { name, desc } of keys) {
      const [x, y] = [rank(a[name]), rank(b[name])] as Array<string | number | null>;
      if (x === y) continue;
      const lower = x === null ? true : y === null ? false : x < y;
      return (lower ? -1 : 1) * (desc ? -1 : 1);
    }
    return 0;
  };
  return [...rows].sort(compare).map((r) => r.id);
}

/**
 * Cursor pagination (page[after] / page[before]): walking every page either
 * way visits each record once, in order, one query a page, whatever the
 * sort; cursors survive inserts between pages; bad cursors are 400s.
 */
for (const db of testDatabases('cursor_pagination')) {
  let dir: Directory;
  test.before(async () => {
    dir = await openDirectory(db, 'cursor_pagination', 60);
  });
  test.after.always(async () => dir?.sequelize.close());

  const employees = () => dir.resources.EmployeeResource;
  const rows = async () => (await dir.models.Employee.findAll({ raw: true })) as unknown as Row[];
  const read = async (sort: string, page: Record<string, string | number>) => {
    dir.resetQueries();
    const proxy = employees().all({ sort, page: page as never });
    const ids = ((await proxy.data) as Row[]).map((r) => r.id);
    return { ids, cursors: (await proxy.cursors) as PageCursors, queries: dir.queries.length };
  };

  /** Every page from one end to the other, following `next` (or `prev`), in reading order. */
  const walk = async (sort: string, size: number, backward = false) => {
    const pages: number[][] = [];
    let cursor = '';
    for (let guard = 0; guard < 100; guard++) {
      const page = await read(sort, backward ? { size, before: cursor } : { size, after: cursor });
      if (page.queries !== 1) throw new Error(`page ${guard} ran ${page.queries} queries`);
      pages.push(page.ids);
      const onward = backward ? page.cursors.prev : page.cursors.next;
      if (onward === null) return backward ? pages.reverse().flat() : pages.flat();
      cursor = onward;
    }
    throw new Error('no last page after 100 pages');
  };

  for (const sort of ['last_name', '-age', 'age,-last_name', '-created_at', 'first_name,-id', '-last_name,age']) {
    test.serial(`${db.name}: sort=${sort} walked forward and backward visits every record once, in order, one query a page`, async (t) => {
      const expected = expectedOrder(await rows(), sort);
      t.deepEqual(await walk(sort, 7), expected);
      t.deepEqual(await walk(sort, 7, true), expected);
      t.deepEqual(await walk(sort, 60), expected, 'one full page, then nothing more');
    });
  }

  test.serial(`${db.name}: the ends: no prev from the start, no next at the end, and an empty page past the end leads back`, async (t) => {
    const first = await read('age', { size: 5, after: '' });
    t.is(first.cursors.prev, null);
    t.truthy(first.cursors.next);
    const last = await read('age', { size: 5, before: '' });
    t.is(last.cursors.next, null);
    t.deepEqual(last.ids, expectedOrder(await rows(), 'age').slice(-5));
    // a one-record page at the end: its prev cursor is the last record's
    const lastRecord = (await read('age', { size: 1, before: '' })).cursors.prev!;
    const end = await read('age', { size: 5, after: lastRecord });
    t.deepEqual(end.ids, []);
    t.is(end.cursors.next, null);
    t.is(end.cursors.prev, lastRecord, 'the request cursor itself');
  });

  test.serial(`${db.name}: records inserted between pages neither repeat nor hide the existing ones`, async (t) => {
    const before = await rows();
    const seen: number[] = [];
    let cursor = '';
    for (let page = 0; page < 100; page++) {
      const { ids, cursors } = await read('age,-last_name', { size: 8, after: cursor });
      seen.push(...ids);
      if (page === 1 || page === 3) {
        // around the position just read: ages below, at and above it, and NULL
        const created = await dir.models.Employee.bulkCreate([20, 30, 45, 64, null].map((age) => ({ first_name: 'New', last_name: 'Hire', age })));
        t.teardown(() => dir.models.Employee.destroy({ where: { id: created.map((e) => e.id) } }));
      }
      if (cursors.next === null) break;
      cursor = cursors.next;
    }
    const existing = before.map((r) => r.id);
    t.deepEqual(seen.filter((id) => existing.includes(id)), expectedOrder(before, 'age,-last_name'));
    t.is(new Set(seen).size, seen.length, 'no record twice');
  });

  test.serial(`${db.name}: a tampered, malformed or foreign cursor is a 400 at page[after]`, async (t) => {
    const { cursors } = await read('age', { size: 5, after: '' });
    const token = cursors.next!;
    t.false(Buffer.from(token, 'base64url').toString('latin1').includes('employees'), 'sealed: the values cannot be read');
    const flipped = `${token.slice(0, 20)}${token[20] === 'A' ? 'B' : 'A'}${token.slice(21)}`;
    const forged = Buffer.from(JSON.stringify({ s: 'employees:age,id', v: [99, 1] })).toString('base64url');
    const otherSort = (await read('-age', { size: 5, after: '' })).cursors.next!;
    const positions = await dir.resources.PositionResource.all({ sort: 'id', page: { size: 2, after: '' } }).cursors;
    configure({ cursorSecret: 'another server' });
    const otherServer = await employees().all({ sort: 'age', page: { size: 5, after: '' } }).cursors;
    configure({ cursorSecret: undefined });
    dir.resetQueries();
    for (const [bad, why] of [
      [flipped, /not a cursor this server issued/],
      [forged, /not a cursor this server issued/],
      [otherServer!.next!, /not a cursor this server issued/],
      ['abc', /is not a cursor/],
      [`${token}.x`, /is not a cursor/],
      ['x'.repeat(5000), /is not a cursor/],
      [otherSort, /another sort or resource/],
      [positions!.next!, /another sort or resource/],
    ] as const) {
      const error = await t.throwsAsync(employees().all({ sort: 'age', page: { size: 5, after: bad } }).data, { instanceOf: InvalidQueryError });
      t.like(error, { status: 400, code: 'invalid_cursor', parameter: 'page[after]' });
      t.regex(error!.message, why);
    }
    const before = await t.throwsAsync(employees().all({ sort: 'age', page: { before: 'abc' } }).data);
    t.like(before, { code: 'invalid_cursor', parameter: 'page[before]' });
    t.is(dir.queries.length, 0, 'no query runs for a bad cursor');
  });

  test.serial(`${db.name}: page[after] with page[number], a range, a size over the maximum, size 0 and a block sort are 400s`, async (t) => {
    const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [{ page: { after: '', number: 2 } }, { code: 'invalid_page', parameter: 'page[after]' }],
      [{ page: { before: '', number: 1 } }, { code: 'invalid_page', parameter: 'page[before]' }],
      [{ page: { after: '', before: '' } }, { code: 'range_pagination_not_supported', parameter: 'page[before]' }],
      [{ page: { after: '', size: 1001 } }, { code: 'page_size_exceeded', parameter: 'page[size]', meta: { page: { maxSize: 1000 } } }],
      [{ page: { after: '', size: 0 } }, { code: 'invalid_page', parameter: 'page[size]' }],
      [{ sort: 'name', page: { after: '' } }, { code: 'cursor_pagination_not_supported', parameter: 'sort' }],
    ];
    for (const [params, expected] of cases) {
      const error = await t.throwsAsync(employees().all(params as never).data, { instanceOf: InvalidQueryError });
      t.like(error, { status: 400, ...expected }, JSON.stringify(params));
    }
  });

  test.serial(`${db.name}: a Resource with its own paginate block pages by number only`, async (t) => {
    class Numbered extends employees() {
      static {
        this.type = 'employees';
        this.paginate((scope: unknown) => scope);
      }
    }
    const error = await t.throwsAsync(Numbered.all({ page: { after: '' } }).data, { instanceOf: InvalidQueryError });
    t.like(error, { status: 400, code: 'cursor_pagination_not_supported', parameter: 'page[after]' });
  });

  test.serial(`${db.name}: offset pages are unchanged and carry no cursors`, async (t) => {
    const proxy = employees().all({ sort: 'age', page: { size: 5, number: 2 } });
    t.is(((await proxy.data) as Row[]).length, 5);
    t.is(await proxy.cursors, undefined);
  });
}
