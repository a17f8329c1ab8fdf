import test from 'ava';
import { Types } from '../../../core/types/index.ts';
import { coerces, refuses } from './coercion-assertions.ts';

test('string params and write keep strings and convert numbers and booleans with String()', (t) => {
  for (const direction of ['params', 'write'] as const) {
    coerces(t, Types.string![direction], [['Ada', 'Ada'], ['', ''], [' padded ', ' padded '], [12, '12'], [1.5, '1.5'], [false, 'false'], [10n, '10']]);
  }
});

test('string params and write refuse objects and arrays', (t) => {
  for (const direction of ['params', 'write'] as const) {
    refuses(t, Types.string![direction], 'string', [{ a: 1 }, ['a'], new Date(0)]);
  }
});

test('string failures read "<value> should be type string"', (t) => {
  const error = t.throws(() => Types.string!.write({ a: 1 }));
  t.is(error?.message, '{"a":1} should be type string');
});

test('string read renders primitives as strings and refuses objects', (t) => {
  coerces(t, Types.string!.read, [['Ada', 'Ada'], [42, '42'], [true, 'true'], [9007199254740993n, '9007199254740993']]);
  refuses(t, Types.string!.read, 'string', [{}, []]);
});

test('string_enum coerces exactly like string; allow lists are checked elsewhere', (t) => {
  coerces(t, Types.string_enum!.params, [['active', 'active'], ['anything', 'anything'], [3, '3']]);
  coerces(t, Types.string_enum!.write, [['archived', 'archived']]);
  coerces(t, Types.string_enum!.read, [['active', 'active']]);
  refuses(t, Types.string_enum!.write, 'string', [{ state: 'active' }]);
});

const UUID = '0F8FAD5B-d9cb-469f-a165-70867728950e';

test('uuid params and write accept the 8-4-4-4-12 hex form and keep its case', (t) => {
  for (const direction of ['params', 'write'] as const) {
    coerces(t, Types.uuid![direction], [[UUID, UUID], [UUID.toLowerCase(), UUID.toLowerCase()], [` ${UUID} `, UUID]]);
  }
});

test('uuid params and write refuse anything that is not a canonical uuid', (t) => {
  const malformed = ['0f8fad5b', '0f8fad5bd9cb469fa16570867728950e', '{0f8fad5b-d9cb-469f-a165-70867728950e}', 'zf8fad5b-d9cb-469f-a165-70867728950e', '', 12];
  for (const direction of ['params', 'write'] as const) refuses(t, Types.uuid![direction], 'uuid', malformed);
});

test('uuid read renders the stored value as a string', (t) => {
  coerces(t, Types.uuid!.read, [[UUID, UUID]]);
});
