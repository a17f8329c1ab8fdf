import test from 'ava';
import { Types } from '../../../core/types/index.ts';
import { coerces, refuses } from './coercion-assertions.ts';

const ACCEPTED = [
  [12, 12], ['12', 12], [' 12 ', 12], ['-7', -7], ['+7', 7], ['007', 7], ['-0', 0], [0, 0], [12n, 12],
  [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER], [String(Number.MIN_SAFE_INTEGER), Number.MIN_SAFE_INTEGER],
] as const;
const REFUSED = ['1.5', '1.0', 'abc', '', '  ', '1e3', '0x10', '12abc', 1.5, true, false, Number.NaN, Infinity,
  Number.MAX_SAFE_INTEGER + 1, '99999999999999999999', 2n ** 64n, { value: 1 }, [1]];

test('integer params accept integers and optionally signed digit strings, trimmed', (t) => {
  coerces(t, Types.integer!.params, ACCEPTED);
});

test('integer params reject decimal strings, words, empty strings, booleans, fractions and unsafe integers', (t) => {
  refuses(t, Types.integer!.params, 'integer', REFUSED);
});

test('integer write follows the params rules: JSON 12 and "12" are both 12', (t) => {
  coerces(t, Types.integer!.write, ACCEPTED);
  refuses(t, Types.integer!.write, 'integer', REFUSED);
});

test('integer failures read "<value> should be type integer"', (t) => {
  t.is(t.throws(() => Types.integer!.params('1.5'))?.message, '"1.5" should be type integer');
  t.is(t.throws(() => Types.integer!.write(true))?.message, 'true should be type integer');
});

test('integer read turns numbers and the numeric strings drivers return into numbers', (t) => {
  coerces(t, Types.integer!.read, [[42, 42], ['42', 42], ['12.00', 12], [7n, 7], ['-3', -3]]);
});

test('integer read truncates a fractional database value towards zero', (t) => {
  coerces(t, Types.integer!.read, [[12.9, 12], ['-12.9', -12]]);
});

test('integer read refuses values that are not numbers', (t) => {
  refuses(t, Types.integer!.read, 'integer', ['abc', '', true, {}, Number.NaN]);
});

test('integer_id params and write are integers; failures name integer', (t) => {
  for (const direction of ['params', 'write'] as const) {
    coerces(t, Types.integer_id![direction], [['12', 12], [12, 12]]);
    refuses(t, Types.integer_id![direction], 'integer', ['x', '1.5', true]);
  }
});

test('integer_id read renders ids as strings, keeping bigint ids exact', (t) => {
  coerces(t, Types.integer_id!.read, [[12, '12'], ['12', '12'], [9007199254740993n, '9007199254740993']]);
});

test('integer_enum coerces exactly like integer; allow lists are checked elsewhere', (t) => {
  coerces(t, Types.integer_enum!.params, [['3', 3], [4, 4]]);
  coerces(t, Types.integer_enum!.read, [['3', 3]]);
  refuses(t, Types.integer_enum!.write, 'integer', ['three', 3.5]);
});
