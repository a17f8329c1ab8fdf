import test from 'ava';
import { elementTypeName, Types } from '../../../core/types/index.ts';
import { coerces, refuses } from './coercion-assertions.ts';

const VARIANTS = {
  array_of_strings: 'string', array_of_integers: 'integer', array_of_integer_ids: 'integer_id', array_of_uuids: 'uuid',
  array_of_string_enums: 'string_enum', array_of_integer_enums: 'integer_enum', array_of_big_decimals: 'big_decimal',
  array_of_floats: 'float', array_of_dates: 'date', array_of_datetimes: 'datetime',
};

test('every type but boolean, hash and array has an array_of_<plural> variant of kind array', (t) => {
  for (const [name, element] of Object.entries(VARIANTS)) {
    t.is(Types[name]?.kind, 'array', name);
    t.is(Types[name]?.canonical_name, name);
    t.is(elementTypeName(name), element);
  }
  for (const missing of ['array_of_booleans', 'array_of_hashes', 'array_of_arrays']) t.false(missing in Types, missing);
});

test('elementTypeName is undefined for types that are not array_of variants', (t) => {
  for (const name of ['integer', 'array', 'hash', 'array_of_booleans', 'nope']) t.is(elementTypeName(name), undefined, name);
});

test('each array_of variant coerces every element with its element type, in each direction', (t) => {
  const uuid = '0f8fad5b-d9cb-469f-a165-70867728950e';
  const d = new Date('2020-01-02T03:04:05Z');
  const cases: Record<string, { params: unknown[]; read: unknown[]; write: unknown[] }> = {
    array_of_strings: { params: [['a', 1], ['a', '1']], read: [[1, true], ['1', 'true']], write: [['a'], ['a']] },
    array_of_integers: { params: [['1', 2], [1, 2]], read: [['1', '2.0'], [1, 2]], write: [['1', 2], [1, 2]] },
    array_of_integer_ids: { params: [['1'], [1]], read: [[1, 2], ['1', '2']], write: [['3'], [3]] },
    array_of_uuids: { params: [[uuid], [uuid]], read: [[uuid], [uuid]], write: [[uuid], [uuid]] },
    array_of_string_enums: { params: [['on', 'off'], ['on', 'off']], read: [['on'], ['on']], write: [['off'], ['off']] },
    array_of_integer_enums: { params: [['1', '2'], [1, 2]], read: [['3'], [3]], write: [[4], [4]] },
    array_of_big_decimals: { params: [['1.50', 2], ['1.5', '2']], read: [['70.10', 70.1], ['70.1', '70.1']], write: [[0.5], ['0.5']] },
    array_of_floats: { params: [['1.5'], [1.5]], read: [['2.5'], [2.5]], write: [[3, '4'], [3, 4]] },
    array_of_dates: { params: [['2020-01-02'], ['2020-01-02']], read: [['2020-01-02 00:00:00'], ['2020-01-02']], write: [[d], ['2020-01-02']] },
    array_of_datetimes: { params: [['2020-01-02T03:04:05Z'], [d]], read: [[d], ['2020-01-02T03:04:05.000Z']], write: [['2020-01-02T03:04:05Z'], [d]] },
  };
  for (const [name, directions] of Object.entries(cases)) {
    for (const direction of ['params', 'read', 'write'] as const) {
      const [input, expected] = directions[direction];
      t.deepEqual(Types[name]![direction](input), expected, `${name}.${direction}`);
    }
  }
});

test('array_of params wrap a single value in a one-element array', (t) => {
  coerces(t, Types.array_of_integers!.params, [['7', [7]], [[], []]]);
  coerces(t, Types.array_of_dates!.params, [['2020-01-01', ['2020-01-01']]]);
});

test('array_of read parses the JSON text SQLite and MySQL return', (t) => {
  coerces(t, Types.array_of_big_decimals!.read, [['["1.50", 2]', ['1.5', '2']]]);
  coerces(t, Types.array_of_strings!.read, [['["a","b"]', ['a', 'b']]]);
});

test('array_of write requires an array', (t) => {
  refuses(t, Types.array_of_integers!.write, 'array_of_integers', [1, '1', '[1]', { 0: 1 }]);
});

test('array_of read refuses values that are neither arrays nor JSON array text', (t) => {
  refuses(t, Types.array_of_strings!.read, 'array_of_strings', ['a', 5]);
});

test('one bad element fails the whole value, reported against the array type', (t) => {
  refuses(t, Types.array_of_integers!.write, 'array_of_integers', [[1, 'x']]);
  refuses(t, Types.array_of_integers!.params, 'array_of_integers', [['1', '1.5'], 'x']);
  refuses(t, Types.array_of_dates!.params, 'array_of_dates', [['2020-02-30']]);
  refuses(t, Types.array_of_uuids!.write, 'array_of_uuids', [['nope']]);
  t.is(t.throws(() => Types.array_of_integers!.write([1, 'x']))?.message, '[1,"x"] should be type array_of_integers');
});

test('a null element is kept as null; the caller decides whether it is allowed', (t) => {
  t.deepEqual(Types.array_of_integers!.write([1, null]), [1, null]);
});
