import test from 'ava';
import { Types } from '../../../core/types/index.ts';
import { coerces, refuses } from './coercion-assertions.ts';

test('big_decimal params and write normalize numbers and decimal strings to an exact decimal string', (t) => {
  const pairs = [
    ['70.03', '70.03'], ['070.50', '70.5'], ['1.000', '1'], ['-1', '-1'], ['+2.50', '2.5'], ['-0', '0'], ['-0.00', '0'],
    ['.5', '0.5'], ['5.', '5'], [' 12.30 ', '12.3'], [70, '70'], [70.03, '70.03'], [0.1, '0.1'], [-2.5, '-2.5'], [5n, '5'],
    ['12345678901234567890.123456789012345678', '12345678901234567890.123456789012345678'],
  ] as const;
  for (const direction of ['params', 'write'] as const) coerces(t, Types.big_decimal![direction], pairs);
});

test('big_decimal writes tiny and huge numbers without exponent notation', (t) => {
  coerces(t, Types.big_decimal!.write, [[1e-7, '0.0000001'], [1.5e21, '1500000000000000000000'], [-2.5e-8, '-0.000000025']]);
});

test('big_decimal params and write refuse words, exponent strings, bare points and non-finite numbers', (t) => {
  const refused = ['abc', '', '.', '-', '1e3', '1E3', '1,5', '1.2.3', '0x10', 'Infinity', Number.NaN, Infinity, true, {}, ['1']];
  for (const direction of ['params', 'write'] as const) refuses(t, Types.big_decimal![direction], 'big_decimal', refused);
});

test('big_decimal read renders PostgreSQL strings and MySQL/SQLite numbers identically', (t) => {
  coerces(t, Types.big_decimal!.read, [['70.10', '70.1'], [70.1, '70.1'], [70, '70'], ['70.00', '70'], ['1.5e-7', '0.00000015'], [1e21, '1000000000000000000000']]);
  refuses(t, Types.big_decimal!.read, 'big_decimal', ['abc', true]);
});

test('float params and write accept numbers and numeric strings', (t) => {
  const pairs = [[4.5, 4.5], ['4.5', 4.5], [' -3 ', -3], ['1e3', 1000], ['.25', 0.25], [7, 7]] as const;
  for (const direction of ['params', 'write'] as const) coerces(t, Types.float![direction], pairs);
});

test('float params and write refuse NaN, Infinity, words, empty strings and booleans', (t) => {
  const refused = [Number.NaN, Infinity, -Infinity, 'Infinity', 'NaN', 'abc', 'fast', '', '0x10', '1e400', true, {}];
  for (const direction of ['params', 'write'] as const) refuses(t, Types.float![direction], 'float', refused);
});

test('float read turns database values into numbers', (t) => {
  coerces(t, Types.float!.read, [['3.25', 3.25], [3.25, 3.25], [2n, 2]]);
  refuses(t, Types.float!.read, 'float', ['abc']);
});
