import test, { type ExecutionContext } from 'ava';
import { EXAMPLE_CONFIG, runMural, useScratchDatabase } from '../support/cli.ts';

useScratchDatabase('query');

/** `mural query` against the example application (its SQLite database, seeded on first use). */
const query = (...args: string[]) => runMural(['query', ...args, '--config', EXAMPLE_CONFIG]);

test.serial('prints matching records as a table', async (t) => {
  const { code, out, err } = await query('employees', '--filter', 'first_name=Ada', '--filter', 'last_name=Lovelace', '--fields', 'first_name,last_name');
  t.is(code, 0, err);
  const [table, summary] = out.trim().split('\n\n');
  const lines = table!.split('\n');
  t.deepEqual(lines[0]!.split(/\s+/), ['id', 'first_name', 'last_name']);
  t.true(lines.slice(2).every((line) => /^\d+\s+Ada\s+Lovelace$/.test(line)));
  t.true(lines.length >= 3);
  t.is(summary, `${lines.length - 2} of ${lines.length - 2}, page 1 of 1`);
});

test.serial('operators, sort, page, per, include and stats', async (t) => {
  const { code, out } = await query('Employees', '--filter', 'age.gte=60', '--sort', '-age', '--page', '1', '--per', '3', '--include', 'positions', '--stats', 'age=maximum', '--stats', 'total=count', '--fields', 'employees=first_name,age', '--fields', 'positions=title');
  t.is(code, 0);
  const [records, summary, stats] = out.trim().split('\n\n');
  const rows = records!.split('\n').filter((line) => /^\d/.test(line));
  t.is(rows.length, 3);
  t.true(rows.every((row) => Number(row.trim().split(/\s+/).pop()) >= 60));
  t.regex(records!, /^id +first_name +age\n-+ +-+ +-+\n\d+ +\w+ +\d+\n {4}positions (\(\d+\)\n {6}id +title\n|: none\n)/);
  t.regex(summary!, /^3 of \d+, page 1 of \d+$/);
  t.regex(stats!, /age\s+maximum\s+65/);
  t.regex(stats!, /total\s+count\s+\d+/);
});

/** The number of employees whose age is at least `age`, as the JSON:API document's count stat says. */
async function employeesCount(t: ExecutionContext, ...filters: string[]): Promise<number> {
  const { code, out, err } = await query('employees', ...filters.flatMap((f) => ['--filter', f]), '--stats', 'total=count', '--format', 'jsonapi');
  t.is(code, 0, err);
  return (JSON.parse(out) as { meta: { stats: { total: { count: number } } } }).meta.stats.total.count;
}

test.serial('--per says how many of how many, and which page of how many', async (t) => {
  const total = await employeesCount(t);
  const pages = Math.ceil(total / 3);
  const first = await query('employees', '--per', '3', '--fields', 'first_name');
  t.is(first.code, 0, first.err);
  t.true(first.out.endsWith(`\n\n3 of ${total}, page 1 of ${pages}\n`), first.out);
  t.notRegex(first.out, /stats/, 'the count it asked for itself is not shown as a stat');
  const last = await query('employees', '--per', '3', '--page', String(pages), '--fields', 'first_name');
  t.true(last.out.endsWith(`\n\n${total - 3 * (pages - 1)} of ${total}, page ${pages} of ${pages}\n`), last.out);
  const past = await query('employees', '--per', '3', '--page', String(pages + 1));
  t.is(past.out, `(no records)\n\n0 of ${total}: page ${pages + 1} is past the last page, ${pages}\n`);
  const filtered = await employeesCount(t, 'age.gte=60');
  t.regex((await query('employees', '--filter', 'age.gte=60')).out, new RegExp(`\\n\\n${Math.min(filtered, 20)} of ${filtered}, page 1 of ${Math.ceil(filtered / 20)}\\n$`), 'the default page size');
  const none = await query('employees', '--filter', 'first_name=Nobody-At-All');
  t.is(none.out, '(no records)\n\n0 of 0\n');
  const cursor = await query('employees', '--per', '3', '--after', '--fields', 'first_name');
  t.regex(cursor.out, new RegExp(`\\n\\n3 of ${total}\\nnext cursor: `), 'a cursor page has no number');
  const json = await query('employees', '--per', '3', '--format', 'jsonapi');
  t.false('stats' in (JSON.parse(json.out) as { meta: object }).meta, 'json and jsonapi are unchanged');
});

test.serial('--include lists the included records under the records that refer to them', async (t) => {
  const args = ['employees', '--sort', 'id', '--per', '4', '--include', 'positions.department', '--fields', 'employees=first_name', '--fields', 'positions=title', '--fields', 'departments=name'];
  const jsonapi = await query(...args, '--format', 'jsonapi');
  type Linked = { type: string; id: string; relationships?: Record<string, { data: { id: string } | Array<{ id: string }> | null }> };
  const document = JSON.parse(jsonapi.out) as { data: Linked[]; included: Linked[] };
  const position = (id: string) => document.included.find((o) => o.type === 'positions' && o.id === id)!;
  // each line as "indent:first word": a record's id, or a relationship's label
  const expected: string[] = [];
  for (const employee of document.data) {
    const positions = employee.relationships!.positions!.data as Array<{ id: string }>;
    expected.push(`0:${employee.id}`, positions.length === 0 ? '4:positions:' : '4:positions');
    for (const { id } of positions) {
      const department = position(id).relationships!.department!.data as { id: string } | null;
      expected.push(`6:${id}`, ...(department ? ['10:department', `12:${department.id}`] : ['10:department:']));
    }
  }
  const table = await query(...args);
  t.is(table.code, 0, table.err);
  const [records] = table.out.split('\n\n');
  const shown = records!.split('\n')
    .filter((line) => !/^\s*(id\b|-)/.test(line))
    .map((line) => `${line.length - line.trimStart().length}:${line.trim().split(/\s+/)[0]}`);
  t.deepEqual(shown, expected);
  t.regex(records!, /\n {4}positions \(\d+\)\n {6}id +title\n {6}-+ +-+\n/, 'a table of its own under each record');
  t.notRegex(table.out, /\n\n(positions|departments) \(/, 'no flat list of included records');
});

test.serial('--format json and jsonapi print the JSON alone', async (t) => {
  const json = await query('EmployeeResource', '--filter', 'id=1', '--fields', 'first_name', '--format', 'json');
  t.deepEqual(JSON.parse(json.out), { data: [{ id: '1', first_name: 'Ada' }] });
  const jsonapi = await query('employees', '--filter', 'id=1', '--fields', 'first_name', '--extra-fields', 'vacation_days', '--format', 'jsonapi');
  const document = JSON.parse(jsonapi.out);
  t.like(document.data[0], { id: '1', type: 'employees', attributes: { first_name: 'Ada' } });
  t.is(typeof document.data[0].attributes.vacation_days, 'number');
});

test.serial('a bad query is one line on stderr and exit 1', async (t) => {
  const unknownFilter = await query('employees', '--filter', 'height=3');
  t.is(unknownFilter.code, 1);
  t.is(unknownFilter.out, '');
  t.is(unknownFilter.err.trim().split('\n').length, 1);
  t.regex(unknownFilter.err, /Unknown filter "height" on employees.*\(filter\[height\]\)/);
  const unknownResource = await query('robots');
  t.is(unknownResource.code, 1);
  t.regex(unknownResource.err, /Unknown resource "robots"; known: bugs, departments, employees/);
});

test.serial('an unknown filter, operator, sort, include, field, stat or resource lists the valid names and suggests the nearest', async (t) => {
  const said = async (...args: string[]) => {
    const { code, out, err } = await query(...args);
    t.is(code, 1, args.join(' '));
    t.is(out, '');
    return err.trim();
  };
  t.regex(await said('employees', '--filter', 'nme=Ada'), /^Unknown filter "nme" on employees; did you mean "name"\? filterable: id, first_name, .*\(filter\[nme\]\)$/);
  t.regex(await said('employees', '--filter', 'nme.eq=Ada'), /^Unknown filter "nme" on employees; did you mean "name"\?/, 'an operator after an unknown name is not a deep filter');
  t.regex(await said('employees', '--filter', 'age.gtee=60'), /^Unknown operator "gtee" for filter "age" on employees; did you mean "gte"\? allowed: eq, /);
  t.regex(await said('employees', '--sort', '-aeg'), /^Unknown sort "aeg" on employees; did you mean "age"\? sortable: id, /);
  t.regex(await said('employees', '--include', 'postions'), /^Unknown include "postions" on employees; did you mean "positions"\? relationships: positions, /);
  t.regex(await said('employees', '--include', 'positions.departmnt'), /^Unknown include "positions\.departmnt" on positions; did you mean "department"\?/);
  t.regex(await said('employees', '--fields', 'frist_name'), /^Unknown field "frist_name" on employees; did you mean "first_name"\? available: /);
  t.regex(await said('employees', '--stats', 'age=avg'), /^Unknown calculation "avg" for stat "age" on employees; did you mean "average"\? available: average, /);
  t.regex(await said('employes'), /^Unknown resource "employes"; did you mean "employees"\? known: bugs, /);
  t.regex(await said('employees', '--filter', 'height=3'), /^Unknown filter "height" on employees; filterable: /, 'no guess when nothing is close');
});

test.serial('--filter takes the URL form users copy from their API, as the HTTP layer reads it', async (t) => {
  const ids = async (...filters: string[]) => {
    const { code, out, err } = await query('employees', ...filters.flatMap((f) => ['--filter', f]), '--per', '1000', '--format', 'json');
    t.is(code, 0, err);
    return (JSON.parse(out) as { data: Array<{ id: string }> }).data.map((e) => e.id).sort();
  };
  const dotted = await ids('age.gte=60', 'age.lt=64');
  t.true(dotted.length > 0);
  t.deepEqual(await ids('age[gte]=60', 'age[lt]=64'), dotted);
  t.deepEqual(await ids('filter[age][gte]=60', 'age.lt=64'), dotted);
  // values are percent-decoded as in a URL
  const named = await ids('first_name[prefix]=Ad%61');
  t.true(named.length > 0);
  t.deepEqual(named, await ids('first_name.prefix=Ada'));
  const deep = await query('employees', '--filter', 'age[gte]=60', '--include', 'positions', '--filter', 'positions.title[prefix]=zzz-none', '--format', 'jsonapi');
  t.is(deep.code, 0, deep.err);
  t.deepEqual((JSON.parse(deep.out) as { included?: unknown[] }).included ?? [], []);
  const unknown = await query('employees', '--filter', 'age[around]=60');
  t.is(unknown.code, 1);
  t.regex(unknown.err, /Unknown operator "around".*filter\[age\]\[around\]/);
});

test.serial('--filter names are ordinary keys: __proto__ is an unknown filter, not a prototype', async (t) => {
  for (const filter of ['__proto__[eq]=1', '__proto__.eq=1', 'filter[__proto__][eq]=1']) {
    const { code, err } = await query('employees', '--filter', filter);
    t.is(code, 1, filter);
    t.regex(err, /__proto__/, filter);
  }
  t.is(Object.getPrototypeOf({}), Object.prototype);
  t.is(({} as Record<string, unknown>).eq, undefined);
});

test.serial('--filter has.<relationship>.<filter> and the URL form has[...] filter by related records alike', async (t) => {
  const ids = async (...filters: string[]) => {
    const { code, out, err } = await query('employees', ...filters.flatMap((f) => ['--filter', f]), '--per', '1000', '--format', 'json');
    t.is(code, 0, err);
    return (JSON.parse(out) as { data: Array<{ id: string }> }).data.map((e) => e.id).sort();
  };
  const engineers = await ids('has.positions.department.name=Engineering');
  t.true(engineers.length > 0);
  t.deepEqual(await ids('has[positions.department.name]=Engineering'), engineers);
  t.deepEqual(await ids('filter[has][positions.department.name][prefix]=engineer'), engineers);
  t.deepEqual(await ids('has.positions.department.name.prefix=engineer'), engineers);
  const senior = await ids('has.positions.rank.gte=8', 'has[positions.rank][lte]=10');
  t.deepEqual(senior, await ids('has[positions.rank][gte]=8'));
  const without = await ids('has_no.positions.department.name=Engineering');
  t.true(without.length > 0);
  t.false(without.some((id) => engineers.includes(id)));
  const unknown = await query('employees', '--filter', 'has.positions.height=3');
  t.is(unknown.code, 1);
  t.regex(unknown.err, /Unknown filter "height" on positions.*filter\[has\]\[positions\.height\]/);
});

test.serial('--after pages by cursor: alone from the first record, then from the cursor it prints; --before walks back', async (t) => {
  const page = async (...args: string[]) => {
    const { code, out, err } = await query('employees', '--sort', '-age,last_name', '--per', '4', '--fields', 'age', ...args);
    t.is(code, 0, err);
    const [records, cursors] = out.trim().split('\nnext cursor: ');
    const table = records!.split('\n\n')[0];
    const [next, prev] = cursors!.split('\nprev cursor: ');
    return { ids: table!.split('\n').slice(2).map((row) => row.trim().split(/\s+/)[0]), next: next!, prev: prev! };
  };
  const offset = await query('employees', '--sort', '-age,last_name', '--per', '8', '--fields', 'age', '--format', 'json');
  const first = await page('--after');
  t.is(first.prev, '(none: first page)');
  const second = await page('--after', first.next);
  const ids = (JSON.parse(offset.out).data as Array<{ id: string }>).map((r) => r.id);
  t.deepEqual([...first.ids, ...second.ids], ids, 'no NULL ages among the oldest: the same order as offset pages');
  const back = await page('--before', second.prev);
  t.deepEqual(back.ids, first.ids);
  const json = await query('employees', '--per', '2', '--after', '--format', 'json');
  t.is(JSON.parse(json.out).data.length, 2);
  t.regex(json.err, /^next cursor: \S+\nprev cursor: \(none: first page\)/);
  const tampered = await query('employees', '--after', `${first.next}x`);
  t.is(tampered.code, 1);
  t.regex(tampered.err, /page\[after\]/);
});

test.serial('--timings lists each database operation the query ran, after the table, or on stderr beside JSON', async (t) => {
  const table = await query('employees', '--filter', 'id=1', '--include', 'positions.department', '--timings');
  t.is(table.code, 0, table.err);
  const [, timings] = table.out.split('\ndatabase: ');
  const lines = timings!.trimEnd().split('\n');
  t.is(lines[0], `${lines.length - 1} operations`);
  t.regex(table.out, /\n {2}employees resolve +1 record {2}\d+\.\d\d ms\n/);
  t.regex(table.out, /\n {2}positions resolve +\d+ records? {2}\d+\.\d\d ms\n/);
  t.regex(table.out, /\n {2}departments resolve +\d+ records? {2}\d+\.\d\d ms\n?/);
  const json = await query('employees', '--filter', 'id=1', '--timings', '--format', 'json');
  t.is(JSON.parse(json.out).data.length, 1, 'stdout stays one document');
  t.regex(json.err, /^database: 1 operation\n {2}employees resolve {2}1 record {2}\d+\.\d\d ms\n?$/);
  const without = await query('employees', '--filter', 'id=1');
  t.notRegex(without.out, /database:/);
});
