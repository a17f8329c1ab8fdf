import test from 'ava';

/** The page's URL builder and header parser, plain ES modules the browser runs, loaded here as they are. */

interface Query {
  filters: Array<{ name: string; operator: string; value: string }>;
  related?: Array<{ negated: boolean; path: string; operator: string; value: string }>;
  sorts: Array<{ name: string; descending: boolean }>;
  include: string[];
  fields: string[];
  extraFields: string[];
  stats: Array<{ name: string; calculation: string }>;
  page: { number: string; size: string; cursor?: boolean };
}
type Module = { queryUrl(path: string, type: string, query: Query): string; parseHeaders(text: string): Record<string, string> };

// a computed specifier: the module has no declarations, and is imported untyped on purpose
const specifier = new URL('../../../../plugins/express/explorer/query-url.js', import.meta.url).href;
const { queryUrl, parseHeaders } = (await import(specifier)) as Module;

const empty: Query = { filters: [], sorts: [], include: [], fields: [], extraFields: [], stats: [], page: { number: '', size: '' } };

test('no choice: the endpoint alone', (t) => {
  t.is(queryUrl('/api/v1/employees', 'employees', empty), '/api/v1/employees');
});

test('every part in the order the README writes them, brackets readable, values encoded', (t) => {
  const url = queryUrl('/api/v1/employees', 'employees', {
    filters: [{ name: 'age', operator: 'gte', value: '40' }, { name: 'first_name', operator: 'eq', value: 'Ada & Co,Grace' }],
    sorts: [{ name: 'age', descending: true }, { name: 'last_name', descending: false }],
    include: ['positions', 'teams'],
    fields: ['first_name', 'age'],
    extraFields: ['vacation_days'],
    stats: [{ name: 'age', calculation: 'average' }, { name: 'total', calculation: 'count' }, { name: 'age', calculation: 'maximum' }],
    page: { number: '2', size: '5' },
  });
  t.is(
    url,
    '/api/v1/employees?filter[age][gte]=40&filter[first_name][eq]=Ada%20%26%20Co,Grace&sort=-age,last_name&include=positions,teams'
      + '&fields[employees]=first_name,age&extra_fields[employees]=vacation_days&stats[age]=average,maximum&stats[total]=count&page[number]=2&page[size]=5',
  );
});

test('a filter row without a name or an operator is left out; an empty value is sent (the API judges it)', (t) => {
  const url = queryUrl('/x', 'x', { ...empty, filters: [{ name: '', operator: 'eq', value: '1' }, { name: 'a', operator: 'eq', value: '' }] });
  t.is(url, '/x?filter[a][eq]=');
});

test('headers: one per line, names a browser accepts, at most 20 lines', (t) => {
  t.deepEqual(parseHeaders('X-Role: admin\nAuthorization:  Bearer a:b \nno colon\n: empty\nBad Name: x'), { 'X-Role': 'admin', Authorization: 'Bearer a:b' });
  const many = Array.from({ length: 30 }, (_, i) => `X-H${i}: ${i}`).join('\n');
  t.is(Object.keys(parseHeaders(many)).length, 20);
});

test('related filters after the plain ones: filter[has] or filter[has_no], the path, the operator', (t) => {
  const url = queryUrl('/api/v1/employees', 'employees', {
    ...empty,
    filters: [{ name: 'age', operator: 'gte', value: '30' }],
    related: [
      { negated: false, path: 'positions.department.name', operator: 'prefix', value: 'Eng & Co' },
      { negated: true, path: 'positions.active', operator: 'eq', value: 'true' },
      { negated: false, path: '', operator: 'eq', value: 'left out' },
    ],
    sorts: [{ name: 'department.name', descending: true }],
  });
  t.is(url, '/api/v1/employees?filter[age][gte]=30&filter[has][positions.department.name][prefix]=Eng%20%26%20Co&filter[has_no][positions.active][eq]=true&sort=-department.name');
});

test('by cursor: an empty page[after] after the size, and no page number', (t) => {
  t.is(queryUrl('/x', 'x', { ...empty, sorts: [{ name: 'age', descending: true }], page: { number: '3', size: '2', cursor: true } }), '/x?sort=-age&page[size]=2&page[after]=');
});
