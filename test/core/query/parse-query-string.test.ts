import test from 'ava';
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
