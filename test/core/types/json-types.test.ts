import test from 'ava';
import { Types } from '../../../core/types/index.ts';
import { coerces, refuses } from './coercion-assertions.ts';

test('hash params accept a plain object or a JSON object string', (t) => {
  coerces(t, Types.hash!.params, [[{ a: 1 }, { a: 1 }], ['{"a":1}', { a: 1 }], [' {"nested":{"b":[1]}} ', { nested: { b: [1] } }], ['{}', {}]]);
});

test('hash params refuse arrays, JSON that is not an object, malformed JSON and other values', (t) => {
  refuses(t, Types.hash!.params, 'hash', [[1], '[1]', '"a"', '1', 'null', '{a:1}', 'abc', 12, true, new Date(0), new Map()]);
});

test('hash write accepts plain objects only; a JSON string is a string, not a hash', (t) => {
  coerces(t, Types.hash!.write, [[{ a: 1 }, { a: 1 }], [{}, {}]]);
  refuses(t, Types.hash!.write, 'hash', ['{"a":1}', [1], 12, new Date(0)]);
});

test('hash failures read "<value> should be type hash"', (t) => {
  t.is(t.throws(() => Types.hash!.write([1]))?.message, '[1] should be type hash');
});

test('hash read accepts objects and the JSON text SQLite and MySQL may return', (t) => {
  coerces(t, Types.hash!.read, [[{ lang: 'en' }, { lang: 'en' }], ['{"lang":"en"}', { lang: 'en' }]]);
  refuses(t, Types.hash!.read, 'hash', ['[1]', 'not json', [1]]);
});

test('array params accept arrays and JSON array strings, and wrap any other single value', (t) => {
  coerces(t, Types.array!.params, [[[1, 'a'], [1, 'a']], ['[1,"a"]', [1, 'a']], ['x', ['x']], [5, [5]], [{ a: 1 }, [{ a: 1 }]], ['[]', []]]);
});

test('array params refuse text that starts like a JSON array but is not one', (t) => {
  refuses(t, Types.array!.params, 'array', ['[1,2', '[a, b]']);
});

test('array write accepts arrays only', (t) => {
  coerces(t, Types.array!.write, [[[1, 'a', null], [1, 'a', null]], [[], []]]);
  refuses(t, Types.array!.write, 'array', ['x', '[1,2]', 5, { 0: 'a' }]);
});

test('array read accepts arrays and JSON array text', (t) => {
  coerces(t, Types.array!.read, [[[1, 2], [1, 2]], ['[1,2]', [1, 2]]]);
  refuses(t, Types.array!.read, 'array', ['x', '{"a":1}', 5]);
});
