import test, { type ExecutionContext } from 'ava';
import { splitFilterValue } from '../../../core/query/filter-values.ts';
import { resolveFilters } from '../../../core/query/resolved-filter.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, tableCounts, type Directory } from '../../support/directory.ts';
import { serve, type HttpClient } from '../../support/http.ts';
import { LEAK, lower, ORDERED, PAYLOADS, TEXT, type Compare } from '../../support/injection.ts';
import { ADMIN } from '../../support/example-auth.ts';

/**
 * Injection, over HTTP on the example, on every database: each classic
 * payload, in every filter operator (and its `not_` form) of every type, the
 * custom `name` filter, and the names of sorts, includes, fields, extra
 * fields, stats and pages, is either treated as data — the result is exactly
 * the rows a literal comparison selects — or rejected with a 400 naming the
 * parameter. Never a 500, never SQL or a stack trace in the body, and every
 * table keeps its rows.
 */

/** Rows with the characters LIKE and quoting care about, so literal matches have something to find. */
const TRICKY_NAMES = [
  { first_name: '%lit', last_name: 'Under_score' },
  { first_name: 'Back\\slash', last_name: "Quo'te" },
  { first_name: 'Bang!', last_name: 'Pct%' },
  { first_name: '_da', last_name: 'Ada--' },
];

type Row = Record<string, unknown>;
type Doc = { data?: Row[]; errors?: Array<{ status: string; code: string; source?: { parameter?: string }; detail: string }> };
/** Every filterable attribute of employees, with how a literal comparison reads its operators. */
const EMPLOYEE_FILTERS: Array<{ attribute: string; operators: Record<string, Compare> }> = [
  { attribute: 'first_name', operators: TEXT },
  { attribute: 'id', operators: ORDERED },
  { attribute: 'age', operators: ORDERED },
  { attribute: 'salary', operators: ORDERED },
  { attribute: 'created_at', operators: ORDERED },
];

/** The custom `name` filter: either name column, ignoring case. */
const NAME_FILTER: Record<string, (row: Row, value: unknown) => boolean> = {
  eq: (row, v) => TEXT.eq!(row.first_name, v) || TEXT.eq!(row.last_name, v),
  prefix: (row, v) => TEXT.prefix!(row.first_name, v) || TEXT.prefix!(row.last_name, v),
};

// salary is admin-only; injection is tried where the filter is usable

for (const db of testDatabases('injection')) {
  let dir: Directory;
  let client: HttpClient;
  let rows: Row[];
  let counts: Record<string, number>;
  test.before(async () => {
    dir = await openDirectory(db, 'injection', 30);
    await dir.models.Employee.bulkCreate(TRICKY_NAMES.map((n, i) => ({ id: 1001 + i, ...n, age: 30 + i })));
    rows = (await dir.models.Employee.findAll()).map((e) => e.get({ plain: true }) as Row);
    counts = await tableCounts(dir.models);
    client = await serve(dir.app);
  });
  test.after.always(async () => {
    await client?.close();
    await dir?.sequelize.close();
  });

  /** The ids a request selects, or its single error. */
  const ask = async (t: ExecutionContext, query: string): Promise<{ ids?: string[]; error?: NonNullable<Doc['errors']>[number] }> => {
    const defaults = ['fields[employees]=first_name', 'page[size]=1000'].filter((d) => !query.startsWith(d.split('=')[0]!));
    const response = await client.get(`/api/v1/employees?${[query, ...defaults].join('&')}`, ADMIN);
    t.false(LEAK.test(response.text), `${query}: SQL or a stack in the body: ${response.text.slice(0, 200)}`);
    const doc = response.body as Doc;
    if (response.status === 200) return { ids: doc.data!.map((r) => String(r.id)).sort() };
    t.is(response.status, 400, `${query}: ${response.text.slice(0, 200)}`);
    return { error: doc.errors![0] };
  };

  const idsWhere = (keep: (row: Row) => boolean) => rows.filter(keep).map((r) => String(r.id)).sort();

  /** Values a filter operator receives, coerced as Mural coerces them; undefined when Mural must reject them. */
  const coerced = (attribute: string, raw: string): unknown[] | undefined => {
    const filter = resolveFilters(dir.resources.EmployeeResource.config).get(attribute)!;
    try {
      return splitFilterValue(raw, { single: filter.single, allowNil: filter.allowNil, json: false }, '').map((v) => filter.valueType.params(v));
    } catch {
      return undefined;
    }
  };

  test.serial(`${db.name}: filter[name][prefix]=% matches only names starting with a literal %`, async (t) => {
    t.deepEqual((await ask(t, 'filter[name][prefix]=%25')).ids, ['1001']);
    t.deepEqual((await ask(t, 'filter[name][prefix]=_')).ids, ['1004']);
    t.deepEqual((await ask(t, 'filter[name][prefix]=%25%25')).ids, []);
    t.deepEqual((await ask(t, 'filter[name][prefix]=under_')).ids, ['1001'], 'the last name Under_score, ignoring case');
    t.deepEqual((await ask(t, 'filter[name][prefix]=back%5C')).ids, ['1002'], 'a backslash is literal too');
  });

  test.serial(`${db.name}: filter[name]=ada ignores case, like the built-in eq`, async (t) => {
    t.deepEqual((await ask(t, 'filter[name]=ada')).ids, idsWhere((r) => lower(r.first_name) === 'ada' || lower(r.last_name) === 'ada'));
    t.true(((await ask(t, 'filter[name]=ada')).ids ?? []).includes('1'), 'Ada Lovelace');
  });

  for (const { attribute, operators } of EMPLOYEE_FILTERS) {
    for (const [operator, compare] of Object.entries(operators)) {
      for (const name of [operator, `not_${operator}`]) {
        test.serial(`${db.name}: filter[${attribute}][${name}] takes every payload as data or rejects it`, async (t) => {
          for (const payload of PAYLOADS) {
            const parameter = `filter[${attribute}][${name}]`;
            const result = await ask(t, `${parameter}=${encodeURIComponent(payload)}`);
            const values = coerced(attribute, payload);
            if (result.error) {
              t.is(result.error.source?.parameter, parameter, payload);
              t.is(values, undefined, `${payload} is a valid ${attribute} and was rejected`);
              continue;
            }
            t.not(values, undefined, `${payload} should have been rejected`);
            const positive = (row: Row) => row[attribute] !== null && values!.some((v) => compare(row[attribute], v));
            const expected = idsWhere((row) => (name === operator ? positive(row) : row[attribute] !== null && !positive(row)));
            t.deepEqual(result.ids, expected, `${parameter}=${payload.slice(0, 40)}`);
          }
        });
      }
    }
  }

  for (const [operator, matches] of Object.entries(NAME_FILTER)) {
    test.serial(`${db.name}: the custom filter[name][${operator}] takes every payload as data`, async (t) => {
      for (const payload of PAYLOADS) {
        const result = await ask(t, `filter[name][${operator}]=${encodeURIComponent(payload)}`);
        const values = coerced('name', payload)!;
        t.deepEqual(result.ids, idsWhere((row) => values.some((v) => matches(row, v))), payload.slice(0, 40));
      }
    });
  }

  test.serial(`${db.name}: a deep filter (filter[positions.title]) takes every payload as data`, async (t) => {
    const positions = (await dir.models.Position.findAll()).map((p) => p.get({ plain: true }) as Row);
    for (const [operator, compare] of Object.entries(TEXT)) {
      for (const payload of PAYLOADS) {
        const query = `include=positions&fields[positions]=title&filter[positions.title][${operator}]=${encodeURIComponent(payload)}`;
        const response = await client.get(`/api/v1/employees?${query}&fields[employees]=first_name&page[size]=1000`);
        t.is(response.status, 200, `${query}: ${response.text.slice(0, 200)}`);
        const included = ((response.body as { included?: Row[] }).included ?? []).map((r) => String(r.id)).sort();
        const values = splitFilterValue(payload, { single: false, allowNil: false, json: false }, '');
        const expected = positions.filter((p) => values.some((v) => compare(p.title, v))).map((p) => String(p.id)).sort();
        t.deepEqual(included, expected, `${operator} ${payload.slice(0, 40)}`);
      }
    }
  });

  const NAMED: Array<[string, (payload: string) => string, string | ((payload: string) => string)]> = [
    ['sort', (p) => `sort=${p}`, 'sort'],
    ['sort descending', (p) => `sort=-${p}`, 'sort'],
    ['include', (p) => `include=${p}`, 'include'],
    ['fields', (p) => `fields[employees]=${p}`, 'fields[employees]'],
    ['extra_fields', (p) => `extra_fields[employees]=${p}`, 'extra_fields[employees]'],
    ['a stat calculation', (p) => `stats[age]=${p}`, 'stats[age]'],
    ['a stat name', (p) => `stats[${p}]=sum`, (p) => `stats[${p}]`],
    ['a filter name', (p) => `filter[${p}]=1`, (p) => `filter[${p}]`],
    ['an operator name', (p) => `filter[age][${p}]=1`, (p) => `filter[age][${p}]`],
    ['a page size', (p) => `page[size]=${p}`, 'page[size]'],
    ['a page number', (p) => `page[number]=${p}`, 'page[number]'],
    ['a deep sort', (p) => `include=positions&sort=positions.${p}`, 'sort'],
    ['a deep include', (p) => `include=positions.${p}`, 'include'],
    ['fields of an included type', (p) => `include=positions&fields[positions]=${p}`, 'fields[positions]'],
    ['a per-parent page size', (p) => `include=positions&page[positions][size]=${p}`, 'page[positions][size]'],
    ['an included type\'s stat', (p) => `include=positions&stats[positions][${p}]=count`, (p) => `stats[positions][${p}]`],
  ];

  for (const [what, query, parameter] of NAMED) {
    test.serial(`${db.name}: a payload as ${what} is a 400 naming the parameter`, async (t) => {
      // brackets and commas would make some payloads several names; those are covered by the others
      for (const payload of PAYLOADS.filter((p) => !/[[\],.]/.test(p) && p.length < 100)) {
        const result = await ask(t, query(encodeURIComponent(payload)));
        t.truthy(result.error, `${what} ${payload} was accepted`);
        t.is(result.error?.source?.parameter, typeof parameter === 'string' ? parameter : parameter(payload), payload);
      }
    });
  }

  test.serial(`${db.name}: every table keeps its rows`, async (t) => {
    t.deepEqual(await tableCounts(dir.models), counts);
    t.is(await dir.models.Employee.count({ where: { first_name: 'Ada', last_name: 'Lovelace' } }), 1);
  });
}
