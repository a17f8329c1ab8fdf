import test from 'ava';
import { configure, muralConfig } from '../../../core/config.ts';
import { parseQueryString } from '../../../core/query/parse-query-string.ts';

test('bracketed keys nest: filter[age][gte]=30', (t) => {
  t.deepEqual(parseQueryString('filter[age][gte]=30&sort=-age'), { filter: { age: { gte: '30' } }, sort: '-age' });
});

test('a leading ? is ignored and values are percent-decoded', (t) => {
  t.deepEqual(parseQueryString('?filter%5Bname%5D=Ada%20L'), { filter: { name: 'Ada L' } });
});

test('a plain filter next to an operator keeps both, the plain one as eq', (t) => {
  t.deepEqual(parseQueryString('filter[age]=30&filter[age][lt]=50'), { filter: { age: { eq: '30', lt: '50' } } });
  t.deepEqual(parseQueryString('filter[age][lt]=50&filter[age]=30'), { filter: { age: { lt: '50', eq: '30' } } });
});

test('key[]= collects an explicit array', (t) => {
  t.deepEqual(parseQueryString('filter[id][]=1&filter[id][]=2'), { filter: { id: ['1', '2'] } });
});

test('page and fields are nested by type', (t) => {
  t.deepEqual(parseQueryString('page[size]=5&page[number]=2&fields[employees]=first_name,age'), {
    page: { size: '5', number: '2' },
    fields: { employees: 'first_name,age' },
  });
});

test('malformed keys are ignored rather than guessed at', (t) => {
  t.deepEqual(parseQueryString('filter[age=3&ok=1'), { ok: '1' });
});

test('prototype keys are plain data and never reach Object.prototype', (t) => {
  const parsed = parseQueryString('filter[age][__proto__]=1&filter[__proto__][toString]=1&constructor[prototype][eq]=2&sort[__proto__]=x');
  t.is(({} as Record<string, unknown>).eq, undefined);
  t.is(({} as Record<string, unknown>).toString, Object.prototype.toString);
  t.deepEqual(Object.keys(parsed.filter as object), ['age', '__proto__']);
  t.is((parsed.filter as Record<string, Record<string, unknown>>).age!['__proto__'], '1');
  t.deepEqual(Object.keys(parsed), ['filter', 'constructor', 'sort']);
  t.is(Object.getPrototypeOf(parsed.filter), null);
});

test('a bare value beside __proto__ operators keeps its eq on the parsed object only', (t) => {
  parseQueryString('filter[age][__proto__][x]=1&filter[age][__proto__]=2');
  t.is(({} as Record<string, unknown>).eq, undefined);
  t.is(({} as Record<string, unknown>).x, undefined);
});

test('more parameters than maxQueryParameters is a 400 naming the first one over', (t) => {
  const query = Array.from({ length: 1001 }, (_, i) => `filter[f${i}]=1`).join('&');
  const error = t.throws(() => parseQueryString(query));
  t.like(error, { status: 400, code: 'too_many_parameters', parameter: 'filter[f1000]' });
});

test('brackets nested deeper than maxQueryDepth are a 400', (t) => {
  t.notThrows(() => parseQueryString('filter[positions][title][eq][x][y]=1'));
  const error = t.throws(() => parseQueryString('filter[a][b][c][d][e][f]=1'));
  t.like(error, { status: 400, code: 'parameter_too_deep', parameter: 'filter[a][b][c][d][e][f]' });
});

test('a NUL character in a value or a name is a 400 naming the parameter', (t) => {
  t.like(t.throws(() => parseQueryString('filter[first_name][eq]=%00')), { status: 400, code: 'invalid_character', parameter: 'filter[first_name][eq]' });
  t.like(t.throws(() => parseQueryString('filter[first%00name]=x')), { status: 400, code: 'invalid_character', parameter: 'filter[first\\0name]' });
});

test('a % not followed by two hex digits is a literal %, as the URL standard reads it', (t) => {
  t.deepEqual(parseQueryString('filter[name]=50%&sort=%&filter[title]=%A'), { filter: { name: '50%', title: '%A' }, sort: '%' });
});

test('a query parsed before hands each caller a copy of its own', (t) => {
  const query = 'filter[id][]=1&filter[id][]=2&include=positions&page[size]=5';
  const first = parseQueryString(query) as { filter: { id: string[] }; page: Record<string, unknown> };
  first.filter.id.push('3');
  first.page.size = '500';
  t.deepEqual(parseQueryString(query), { filter: { id: ['1', '2'] }, include: 'positions', page: { size: '5' } });
  t.not(parseQueryString(query), parseQueryString(query));
});

test('a query parsed before obeys the parameter limits as they are now', (t) => {
  const query = 'filter[a]=1&filter[b]=2&filter[c]=3';
  t.deepEqual(parseQueryString(query), { filter: { a: '1', b: '2', c: '3' } });
  const { maxQueryParameters } = muralConfig;
  configure({ maxQueryParameters: 2 });
  try {
    t.throws(() => parseQueryString(query), { message: 'A query may have at most 2 parameters' });
    t.throws(() => parseQueryString(query), { message: 'A query may have at most 2 parameters' }, 'refused again, not remembered');
  } finally {
    configure({ maxQueryParameters });
  }
  t.deepEqual(parseQueryString(query), { filter: { a: '1', b: '2', c: '3' } });
});

test('a query string that is not valid percent-encoded UTF-8 is a 400 naming the parameter, not U+FFFD', (t) => {
  for (const [query, parameter] of [['filter[first_name]=%FF%FE', 'filter[first_name]'], ['sort=age&filter[title]=%E0%A4%A', 'filter[title]'], ['filter%5Bn%C3%5D=x', 'filter[n\uFFFD]']]) {
    const error = t.throws(() => parseQueryString(query!), { message: 'The query string is not valid percent-encoded UTF-8' }) as unknown as { code: string; parameter: string };
    t.is(error.code, 'invalid_encoding');
    t.is(error.parameter, parameter);
  }
  t.deepEqual(parseQueryString('filter[name]=Ad%C3%A1+L%2B'), { filter: { name: 'Adá L+' } }, 'valid escapes and + still decode');
});
