import test from 'ava';
import { ResourceConfigurationError, TypeCoercionError } from '../../../core/errors/index.ts';
import { elementTypeName, lookupType, Types } from '../../../core/types/index.ts';

const fails = (t: import('ava').ExecutionContext, fn: () => unknown, message: string) => {
  const error = t.throws(fn, { instanceOf: TypeCoercionError });
  t.is(error?.message, message);
  t.is(error?.status, 400);
};

test('every type passes null and undefined through as null', (t) => {
  for (const [name, type] of Object.entries(Types)) {
    for (const direction of ['params', 'read', 'write'] as const) {
      t.is(type[direction](null), null, `${name}.${direction}(null)`);
      t.is(type[direction](undefined), null, `${name}.${direction}(undefined)`);
    }
  }
});

test('string accepts strings, numbers and booleans, and refuses objects', (t) => {
  t.is(Types.string!.params('Ada'), 'Ada');
  t.is(Types.string!.write(12), '12');
  t.is(Types.string!.read(true), 'true');
  fails(t, () => Types.string!.write({ a: 1 }), '{"a":1} should be type string');
  fails(t, () => Types.string!.params(['a']), '["a"] should be type string');
});

test('integer accepts integers and integer strings; refuses decimals, words and booleans', (t) => {
  t.is(Types.integer!.params('12'), 12);
  t.is(Types.integer!.params(' -7 '), -7);
  t.is(Types.integer!.write(12), 12);
  t.is(Types.integer!.read('42'), 42);
  fails(t, () => Types.integer!.params('1.5'), '"1.5" should be type integer');
  fails(t, () => Types.integer!.params('abc'), '"abc" should be type integer');
  fails(t, () => Types.integer!.params(''), '"" should be type integer');
  fails(t, () => Types.integer!.write(true), 'true should be type integer');
  fails(t, () => Types.integer!.write(1.5), '1.5 should be type integer');
  fails(t, () => Types.integer!.write('99999999999999999999'), '"99999999999999999999" should be type integer');
});

test('integer_id queries and persists as an integer and renders as a string', (t) => {
  t.is(Types.integer_id!.params('12'), 12);
  t.is(Types.integer_id!.write('12'), 12);
  t.is(Types.integer_id!.read(12), '12');
  fails(t, () => Types.integer_id!.params('x'), '"x" should be type integer');
});

test('uuid requires the canonical 8-4-4-4-12 form and keeps case', (t) => {
  const id = '0F8FAD5B-d9cb-469f-a165-70867728950e';
  t.is(Types.uuid!.params(id), id);
  t.is(Types.uuid!.write(id), id);
  fails(t, () => Types.uuid!.params('0f8fad5b'), '"0f8fad5b" should be type uuid');
});

test('enums coerce like their base type', (t) => {
  t.is(Types.string_enum!.params('active'), 'active');
  t.is(Types.integer_enum!.params('3'), 3);
  fails(t, () => Types.integer_enum!.write('three'), '"three" should be type integer');
});

test('big_decimal keeps decimals as normalized strings', (t) => {
  const decimal = Types.big_decimal!;
  t.is(decimal.params('070.50'), '70.5');
  t.is(decimal.write(70), '70');
  t.is(decimal.write('1.000'), '1');
  t.is(decimal.read('70.10'), '70.1');
  t.is(decimal.read(70.03), '70.03');
  t.is(decimal.write('-0'), '0');
  t.is(decimal.write('.5'), '0.5');
  fails(t, () => decimal.write('abc'), '"abc" should be type big_decimal');
  fails(t, () => decimal.params('1e3'), '"1e3" should be type big_decimal');
  fails(t, () => decimal.write(Number.NaN), 'NaN should be type big_decimal');
});

test('float accepts numbers and numeric strings', (t) => {
  t.is(Types.float!.params('4.5'), 4.5);
  t.is(Types.float!.read('3.25'), 3.25);
  fails(t, () => Types.float!.write('fast'), '"fast" should be type float');
  fails(t, () => Types.float!.write(''), '"" should be type float');
});

test('boolean accepts true, false, 1, 0 and their strings; nothing else', (t) => {
  for (const yes of [true, 'true', 'TRUE', '1', 1]) t.true(Types.boolean!.params(yes) as boolean, String(yes));
  for (const no of [false, 'false', '0', 0]) t.false(Types.boolean!.write(no) as boolean, String(no));
  t.true(Types.boolean!.read('t') as boolean);
  fails(t, () => Types.boolean!.params('yes'), '"yes" should be type boolean');
  fails(t, () => Types.boolean!.write(2), '2 should be type boolean');
});

test('date accepts real YYYY-MM-DD dates only', (t) => {
  t.is(Types.date!.params('2019-01-31'), '2019-01-31');
  t.is(Types.date!.write(new Date('2019-01-31T10:00:00Z')), '2019-01-31');
  t.is(Types.date!.read(new Date('2019-01-31T00:00:00Z')), '2019-01-31');
  t.is(Types.date!.read('2019-01-31 00:00:00'), '2019-01-31');
  fails(t, () => Types.date!.params('2019-01'), '"2019-01" should be type date');
  fails(t, () => Types.date!.params('2019-02-30'), '"2019-02-30" should be type date');
  fails(t, () => Types.date!.write('2019-01-31T10:00'), '"2019-01-31T10:00" should be type date');
});

test('datetime reads ISO 8601 into a Date and renders ISO 8601', (t) => {
  t.deepEqual(Types.datetime!.params('2020-01-02T03:04:05Z'), new Date('2020-01-02T03:04:05Z'));
  t.deepEqual(Types.datetime!.write('2020-01-02T03:04:05.123+02:00'), new Date('2020-01-02T01:04:05.123Z'));
  t.deepEqual(Types.datetime!.params('2020-01-02'), new Date('2020-01-02T00:00:00Z'));
  t.is(Types.datetime!.read('2020-01-02 03:04:05.123 +00:00'), '2020-01-02T03:04:05.123Z');
  t.is(Types.datetime!.read(new Date('2020-01-02T03:04:05Z')), '2020-01-02T03:04:05.000Z');
  fails(t, () => Types.datetime!.params('abc'), '"abc" should be type datetime');
  fails(t, () => Types.datetime!.write(1577934245000), '1577934245000 should be type datetime');
  fails(t, () => Types.datetime!.params('2020-13-01'), '"2020-13-01" should be type datetime');
});

test('hash takes JSON objects; parses them from query strings and database text', (t) => {
  t.deepEqual(Types.hash!.params('{"a":1}'), { a: 1 });
  t.deepEqual(Types.hash!.write({ a: 1 }), { a: 1 });
  t.deepEqual(Types.hash!.read('{"lang":"en"}'), { lang: 'en' });
  fails(t, () => Types.hash!.write([1]), '[1] should be type hash');
  fails(t, () => Types.hash!.write('{"a":1}'), '"{\\"a\\":1}" should be type hash');
});

test('array takes arrays; params wrap a single value', (t) => {
  t.deepEqual(Types.array!.params('x'), ['x']);
  t.deepEqual(Types.array!.write([1, 'a']), [1, 'a']);
  t.deepEqual(Types.array!.read('[1,2]'), [1, 2]);
  fails(t, () => Types.array!.write('x'), '"x" should be type array');
});

test('every scalar but boolean has an array_of_<plural> variant that coerces each element', (t) => {
  const variants = {
    array_of_strings: 'string', array_of_integers: 'integer', array_of_integer_ids: 'integer_id', array_of_uuids: 'uuid',
    array_of_string_enums: 'string_enum', array_of_integer_enums: 'integer_enum', array_of_big_decimals: 'big_decimal',
    array_of_floats: 'float', array_of_dates: 'date', array_of_datetimes: 'datetime',
  };
  for (const [name, element] of Object.entries(variants)) {
    t.is(Types[name]!.kind, 'array', name);
    t.is(elementTypeName(name), element);
  }
  t.deepEqual(Types.array_of_integers!.write(['1', 2]), [1, 2]);
  t.deepEqual(Types.array_of_integer_ids!.read([1, 2]), ['1', '2']);
  t.deepEqual(Types.array_of_big_decimals!.read('["1.50"]'), ['1.5']);
  t.deepEqual(Types.array_of_dates!.params('2020-01-01'), ['2020-01-01']);
  fails(t, () => Types.array_of_integers!.write([1, 'x']), '[1,"x"] should be type array_of_integers');
  fails(t, () => Types.array_of_integers!.write(1), '1 should be type array_of_integers');
  for (const missing of ['array_of_booleans', 'array_of_hashes', 'array_of_arrays']) t.false(missing in Types);
});

test('every entry describes itself', (t) => {
  for (const [name, type] of Object.entries(Types)) {
    t.is(type.canonical_name, name);
    t.true(['scalar', 'array', 'record'].includes(type.kind));
    t.true(type.description.length > 5, name);
  }
  t.is(Types.hash!.kind, 'record');
});

test('a coercion can be replaced in place', (t) => {
  const original = Types.string!.read;
  try {
    Types.string!.read = Types.integer!.read;
    t.is(lookupType('string').read('12'), 12);
  } finally {
    Types.string!.read = original;
  }
  t.is(Types.string!.read(12), '12');
});

test('a custom type is registered by assignment', (t) => {
  Types.registry_test_money = {
    params: (v) => Number(v), read: (v) => `$${v}`, write: (v) => Number(v), kind: 'scalar', canonical_name: 'registry_test_money', description: 'Money.',
  };
  try {
    t.is(lookupType('registry_test_money').read(5), '$5');
  } finally {
    delete Types.registry_test_money;
  }
});

test('looking up an unknown type lists the known ones', (t) => {
  const error = t.throws(() => lookupType('nope'), { instanceOf: ResourceConfigurationError });
  t.regex(error!.message, /^Unknown type "nope"; known types: string, integer, integer_id, uuid/);
});
