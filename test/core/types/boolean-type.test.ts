import test from 'ava';
import { Types } from '../../../core/types/index.ts';
import { coerces, refuses } from './coercion-assertions.ts';

const STRICT = [
  [true, true], [false, false], [1, true], [0, false],
  ['true', true], ['false', false], ['TRUE', true], ['False', false], [' true ', true], ['1', true], ['0', false],
] as const;

test('boolean params and write accept true, false, 1, 0 and their strings, case-insensitively', (t) => {
  for (const direction of ['params', 'write'] as const) coerces(t, Types.boolean![direction], STRICT);
});

test('boolean params and write refuse anything else, t and f included', (t) => {
  const refused = ['yes', 'no', 't', 'f', 'on', '', '2', 2, -1, 0.5, {}, []];
  for (const direction of ['params', 'write'] as const) refuses(t, Types.boolean![direction], 'boolean', refused);
});

test('boolean failures read "<value> should be type boolean"', (t) => {
  t.is(t.throws(() => Types.boolean!.params('yes'))?.message, '"yes" should be type boolean');
});

test('boolean read accepts the integer and t/f forms databases store booleans in', (t) => {
  coerces(t, Types.boolean!.read, [...STRICT, [1n, true], [0n, false], ['t', true], ['f', false], ['T', true]]);
  refuses(t, Types.boolean!.read, 'boolean', ['yes', 2]);
});
