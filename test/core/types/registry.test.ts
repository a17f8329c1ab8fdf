import test from 'ava';
import { ResourceConfigurationError, TypeCoercionError } from '../../../core/errors/index.ts';
import { lookupType, Types, type TypeDefinition } from '../../../core/types/index.ts';

const BUILT_IN = ['string', 'integer', 'integer_id', 'uuid', 'string_enum', 'integer_enum', 'big_decimal', 'float', 'boolean',
  'date', 'datetime', 'hash', 'array', 'array_of_strings', 'array_of_integers', 'array_of_integer_ids', 'array_of_uuids',
  'array_of_string_enums', 'array_of_integer_enums', 'array_of_big_decimals', 'array_of_floats', 'array_of_dates', 'array_of_datetimes'];

test('the registry holds exactly the built-in types, in declaration order', (t) => {
  t.deepEqual(Object.keys(Types), BUILT_IN);
});

test('every coercion of every type passes null and undefined through as null', (t) => {
  for (const [name, type] of Object.entries(Types)) {
    for (const direction of ['params', 'read', 'write'] as const) {
      t.is(type[direction](null), null, `${name}.${direction}(null)`);
      t.is(type[direction](undefined), null, `${name}.${direction}(undefined)`);
    }
  }
});

test('every entry carries its own name, a kind and a one-sentence description', (t) => {
  for (const [name, type] of Object.entries(Types)) {
    t.is(type.canonical_name, name);
    t.regex(type.description, /^[A-Z].{8,}\.$/, name);
  }
  t.is(Types.string!.kind, 'scalar');
  t.is(Types.integer_id!.kind, 'scalar');
  t.is(Types.hash!.kind, 'record');
  t.is(Types.array!.kind, 'array');
  t.is(Types.array_of_dates!.kind, 'array');
});

test('lookupType returns the registered entry itself', (t) => {
  t.is(lookupType('integer'), Types.integer);
  t.is(lookupType('array_of_uuids'), Types.array_of_uuids);
});

test('lookupType of an unknown name throws a configuration error listing the known types', (t) => {
  const error = t.throws(() => lookupType('nope'), { instanceOf: ResourceConfigurationError });
  t.is(error?.message, `Unknown type "nope"; known types: ${BUILT_IN.join(', ')}`);
});

test('lookupType does not mistake inherited object properties for types', (t) => {
  for (const name of ['constructor', 'toString', '__proto__']) t.throws(() => lookupType(name), { instanceOf: ResourceConfigurationError });
});

test('a coercion replaced in place is what lookups see, and only on that entry', (t) => {
  const original = Types.string!.read;
  try {
    Types.string!.read = Types.integer!.read;
    t.is(lookupType('string').read('12'), 12);
    t.is(Types.string_enum!.read('12'), '12');
  } finally {
    Types.string!.read = original;
  }
  t.is(Types.string!.read(12), '12');
});

test('replacing an element coercion in place changes its array_of variant too', (t) => {
  const original = Types.integer!.read;
  try {
    Types.integer!.read = (value) => (value === null || value === undefined ? null : `#${String(value)}`);
    t.deepEqual(Types.array_of_integers!.read([1, 2]), ['#1', '#2']);
  } finally {
    Types.integer!.read = original;
  }
  t.deepEqual(Types.array_of_integers!.read([1, 2]), [1, 2]);
});

test('a custom type is registered by assignment and found by lookupType', (t) => {
  const money: TypeDefinition = {
    params: (v) => (v === null || v === undefined ? null : Math.round(Number(v) * 100)),
    read: (v) => (v === null || v === undefined ? null : `$${(Number(v) / 100).toFixed(2)}`),
    write: (v) => {
      if (v === null || v === undefined) return null;
      if (typeof v !== 'number') throw new TypeCoercionError('money', v);
      return Math.round(v * 100);
    },
    kind: 'scalar',
    canonical_name: 'money',
    description: 'An amount of money in cents.',
  };
  Types.money = money;
  try {
    t.is(lookupType('money'), money);
    t.is(lookupType('money').read(1999), '$19.99');
    t.is(lookupType('money').write(19.99), 1999);
    t.throws(() => lookupType('money').write('lots'), { instanceOf: TypeCoercionError, message: '"lots" should be type money' });
    t.true(Object.keys(Types).includes('money'));
  } finally {
    delete Types.money;
  }
  t.throws(() => lookupType('money'), { instanceOf: ResourceConfigurationError });
});
