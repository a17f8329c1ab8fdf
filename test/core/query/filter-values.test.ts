import test from 'ava';
import { splitCommas, splitFilterValue } from '../../../core/query/filter-values.ts';

const plain = { single: false, allowNil: false, json: false };

test('a comma list becomes several values', (t) => {
  t.deepEqual(splitFilterValue('a,b,c', plain, 'filter[x]'), ['a', 'b', 'c']);
});

test('{{a,b}} keeps its commas and loses its braces', (t) => {
  t.deepEqual(splitFilterValue('{{a,b}}', plain, 'filter[x]'), ['a,b']);
  t.deepEqual(splitCommas('{{a,b}},c,{{d}}'), ['a,b', 'c', 'd']);
});

test('[a,b] is an explicit array', (t) => {
  t.deepEqual(splitFilterValue('[a,b]', plain, 'filter[x]'), ['a', 'b']);
});

test('a single filter takes the value as given, commas and all', (t) => {
  t.deepEqual(splitFilterValue('a,b', { ...plain, single: true }, 'filter[x]'), ['a,b']);
});

test('hash filters parse JSON objects, and arrays of them', (t) => {
  const json = { ...plain, json: true };
  t.deepEqual(splitFilterValue('{"a":1}', json, 'filter[x]'), [{ a: 1 }]);
  t.deepEqual(splitFilterValue('[{"a":1},{"b":2}]', json, 'filter[x]'), [{ a: 1 }, { b: 2 }]);
  const error = t.throws(() => splitFilterValue('{nope', json, 'filter[x]'));
  t.like(error, { status: 400, parameter: 'filter[x]' });
});

test('null is the string "null" unless the filter allows nil', (t) => {
  t.deepEqual(splitFilterValue('null', plain, 'filter[x]'), ['null']);
  t.deepEqual(splitFilterValue('null', { ...plain, allowNil: true }, 'filter[x]'), [null]);
  t.deepEqual(splitFilterValue('a,null', { ...plain, allowNil: true }, 'filter[x]'), ['a', null]);
});

test('in-process arrays and non-string values pass through', (t) => {
  t.deepEqual(splitFilterValue(['a,b', 'c'], plain, 'filter[x]'), ['a,b', 'c']);
  t.deepEqual(splitFilterValue(30, plain, 'filter[x]'), [30]);
});
