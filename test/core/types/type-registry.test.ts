import test, { type ExecutionContext } from 'ava';
import { ResourceConfigurationError, TypeCoercionError } from '../../../core/errors/index.ts';
import { elementTypeName, lookupType, Types, type Coercion, type TypeDefinition } from '../../../core/types/index.ts';

/*
 * The type registry as a specification: for each of the 13 built-in types and
 * each array_of_<plural> variant, what the params, read and write coercions
 * accept, what they produce, and what they refuse.
 */

const SCALARS = ['string', 'integer', 'integer_id', 'uuid', 'string_enum', 'integer_enum', 'big_decimal', 'float', 'boolean', 'date', 'datetime'];
const BUILT_IN = [...SCALARS, 'hash', 'array'];
const ARRAY_OF: Record<string, string> = {
  array_of_strings: 'string',
  array_of_integers: 'integer',
  array_of_integer_ids: 'integer_id',
  array_of_uuids: 'uuid',
  array_of_string_enums: 'string_enum',
  array_of_integer_enums: 'integer_enum',
  array_of_big_decimals: 'big_decimal',
  array_of_floats: 'float',
  array_of_dates: 'date',
  array_of_datetimes: 'datetime',
};
const DIRECTIONS = ['params', 'read', 'write'] as const;
type Direction = (typeof DIRECTIONS)[number];

const UUID = '123e4567-e89b-12d3-a456-426614174000';

/** The registered entry, failing the test (not crashing on undefined) when it is missing. */
function type(name: string): TypeDefinition {
  const entry = Types[name];
  if (!entry) throw new Error(`Types.${name} is not registered`);
  return entry;
}

const coercion = (name: string, direction: Direction): Coercion => type(name)[direction];

const show = (value: unknown): string => {
  if (typeof value === 'bigint') return `${value}n`;
  if (value instanceof Date) return `Date(${Number.isNaN(value.getTime()) ? 'invalid' : value.toISOString()})`;
  return JSON.stringify(value) ?? String(value);
};

/** Each [input, expected] pair coerces to exactly `expected` (deep equality; Dates compare by time, -0 differs from 0). */
function accepts(t: ExecutionContext, name: string, direction: Direction, pairs: ReadonlyArray<readonly [unknown, unknown]>): void {
  const coerce = coercion(name, direction);
  for (const [input, expected] of pairs) {
    t.deepEqual(coerce(input), expected, `${name}.${direction}(${show(input)}) → ${show(expected)}`);
  }
}

/** The 400 TypeCoercionError a refused value raises, with its exact message. */
function refusesWith(t: ExecutionContext, coerce: Coercion, value: unknown, message: string, label: string): void {
  const error = t.throws(() => coerce(value), { instanceOf: TypeCoercionError }, `${label} should refuse ${show(value)}`);
  if (!error) return;
  t.is(error.message, message, label);
  t.is(error.status, 400, label);
  t.is(error.code, 'type_error', label);
  t.is(error.value, value, label);
}

/**
 * Each value is refused with `<value as JSON> should be type <reported>`;
 * `reported` is the type named in the message (the type itself unless it
 * borrows another type's coercion).
 */
function rejects(t: ExecutionContext, name: string, direction: Direction, values: readonly unknown[], reported = name): void {
  const coerce = coercion(name, direction);
  for (const value of values) {
    refusesWith(t, coerce, value, `${JSON.stringify(value)} should be type ${reported}`, `${name}.${direction}`);
  }
}

// ---------------------------------------------------------------------------
// The registry itself
// ---------------------------------------------------------------------------

test('the registry holds the 13 built-in types and every array_of_<plural> variant', (t) => {
  for (const name of [...BUILT_IN, ...Object.keys(ARRAY_OF)]) t.truthy(Types[name], name);
  t.is(BUILT_IN.length, 13);
  t.is(Object.keys(ARRAY_OF).length, 10);
});

test('boolean, hash and array have no array_of variant', (t) => {
  for (const name of ['array_of_booleans', 'array_of_hashes', 'array_of_arrays']) {
    t.false(Object.hasOwn(Types, name), name);
    t.throws(() => lookupType(name), { instanceOf: ResourceConfigurationError }, name);
  }
});

test('every entry has params, read and write coercions, a kind, its own canonical_name and a description', (t) => {
  for (const name of [...BUILT_IN, ...Object.keys(ARRAY_OF)]) {
    const entry = type(name);
    for (const direction of DIRECTIONS) t.is(typeof entry[direction], 'function', `${name}.${direction}`);
    t.is(entry.canonical_name, name);
    t.is(typeof entry.description, 'string', name);
    t.true(entry.description.trim().length > 0, `${name} has a description`);
  }
});

test('scalars are kind scalar, hash is kind record, array and every array_of variant are kind array', (t) => {
  for (const name of SCALARS) t.is(type(name).kind, 'scalar', name);
  t.is(type('hash').kind, 'record');
  t.is(type('array').kind, 'array');
  for (const name of Object.keys(ARRAY_OF)) t.is(type(name).kind, 'array', name);
});

test('every coercion of every type passes null and undefined through as null', (t) => {
  for (const name of [...BUILT_IN, ...Object.keys(ARRAY_OF)]) {
    for (const direction of DIRECTIONS) {
      t.is(coercion(name, direction)(null), null, `${name}.${direction}(null)`);
      t.is(coercion(name, direction)(undefined), null, `${name}.${direction}(undefined)`);
    }
  }
});

test('elementTypeName names the element type of each array_of variant', (t) => {
  t.is(elementTypeName('array_of_integer_ids'), 'integer_id');
  for (const [arrayName, element] of Object.entries(ARRAY_OF)) t.is(elementTypeName(arrayName), element, arrayName);
});

test('elementTypeName is undefined for anything that is not an array_of variant', (t) => {
  for (const name of ['integer', 'array', 'hash', 'array_of_booleans', 'nope']) t.is(elementTypeName(name), undefined, name);
});

test('lookupType returns the registered entry itself', (t) => {
  t.is(lookupType('integer'), Types.integer);
  t.is(lookupType('array_of_uuids'), Types.array_of_uuids);
});

test('lookupType of an unknown name throws a configuration error that lists the known types', (t) => {
  const error = t.throws(() => lookupType('nope'), { instanceOf: ResourceConfigurationError });
  t.truthy(error?.message.includes('nope'), 'names the unknown type');
  for (const name of [...BUILT_IN, ...Object.keys(ARRAY_OF)]) t.true(error?.message.includes(name), `lists ${name}`);
});

test('lookupType does not mistake inherited object properties for types', (t) => {
  for (const name of ['constructor', 'toString', 'hasOwnProperty']) t.throws(() => lookupType(name), { instanceOf: ResourceConfigurationError }, name);
});

// ---------------------------------------------------------------------------
// Coercion errors
// ---------------------------------------------------------------------------

test('a refused value throws a 400 TypeCoercionError "<json value> should be type <name>"', (t) => {
  const error = t.throws(() => type('integer').params('abc'), { instanceOf: TypeCoercionError });
  t.is(error?.message, '"abc" should be type integer');
  t.is(error?.status, 400);
  t.is(error?.typeName, 'integer');
  t.is(error?.value, 'abc');
});

// ---------------------------------------------------------------------------
// string
// ---------------------------------------------------------------------------

test('string coercions keep strings as given and render numbers and booleans as text', (t) => {
  for (const direction of DIRECTIONS) {
    accepts(t, 'string', direction, [['abc', 'abc'], ['', ''], [' padded ', ' padded '], [12, '12'], [1.5, '1.5'], [true, 'true'], [10n, '10']]);
  }
});

test('string coercions reject objects and arrays', (t) => {
  for (const direction of DIRECTIONS) rejects(t, 'string', direction, [{}, { a: 1 }, [], ['a']]);
});

// ---------------------------------------------------------------------------
// integer
// ---------------------------------------------------------------------------

test('integer params and write accept integers and integer strings', (t) => {
  for (const direction of ['params', 'write'] as const) {
    accepts(t, 'integer', direction, [['12', 12], [12, 12], [' 12 ', 12], ['-7', -7], ['+7', 7], ['0', 0], [-0, 0], ['-0', 0], [12n, 12]]);
  }
});

test('integer params and write reject decimals, words, empty strings and booleans', (t) => {
  for (const direction of ['params', 'write'] as const) {
    rejects(t, 'integer', direction, ['1.5', 'abc', '', ' ', true, false, 1.5, '1e3', '0x10', [1], { a: 1 }]);
  }
});

test('integer params reject integers outside the safe range', (t) => {
  rejects(t, 'integer', 'params', [2 ** 53, String(2 ** 53)]);
  refusesWith(t, type('integer').params, 2n ** 53n, '9007199254740992 should be type integer', 'integer.params');
});

test('integer read renders numbers and numeric strings as integers, truncating towards zero', (t) => {
  accepts(t, 'integer', 'read', [[12, 12], ['12', 12], [12.7, 12], [-12.7, -12], ['1.5', 1], ['1e3', 1000], [12n, 12], [-0.5, 0]]);
});

test('integer read rejects words, booleans and empty strings', (t) => {
  rejects(t, 'integer', 'read', ['abc', true, '', [1]]);
});

// ---------------------------------------------------------------------------
// integer_id
// ---------------------------------------------------------------------------

test('integer_id params and write coerce to an integer', (t) => {
  for (const direction of ['params', 'write'] as const) accepts(t, 'integer_id', direction, [['12', 12], [12, 12]]);
});

test('integer_id reads as a string', (t) => {
  accepts(t, 'integer_id', 'read', [[12, '12'], ['12', '12']]);
});

test('integer_id params and write reject what integer rejects, reported as type integer', (t) => {
  for (const direction of ['params', 'write'] as const) rejects(t, 'integer_id', direction, ['1.5', 'abc', '', true, 1.5], 'integer');
});

test('integer_id read rejects objects, reported as type string', (t) => {
  rejects(t, 'integer_id', 'read', [{ id: 1 }], 'string');
});

// ---------------------------------------------------------------------------
// uuid
// ---------------------------------------------------------------------------

test('uuid params and write accept the 8-4-4-4-12 hexadecimal form, keeping its case', (t) => {
  const upper = UUID.toUpperCase();
  for (const direction of ['params', 'write'] as const) {
    accepts(t, 'uuid', direction, [[UUID, UUID], [upper, upper], [` ${UUID} `, UUID]]);
  }
});

test('uuid params and write reject anything but the 8-4-4-4-12 form', (t) => {
  for (const direction of ['params', 'write'] as const) {
    rejects(t, 'uuid', direction, [
      'abc',
      '',
      UUID.replace(/-/g, ''),
      UUID.slice(0, -1),
      `${UUID}0`,
      `g${UUID.slice(1)}`,
      `{${UUID}}`,
      12,
      true,
    ]);
  }
});

test('uuid read renders the stored value as a string', (t) => {
  accepts(t, 'uuid', 'read', [[UUID, UUID], ['legacy-id', 'legacy-id']]);
  rejects(t, 'uuid', 'read', [{}], 'string');
});

// ---------------------------------------------------------------------------
// string_enum and integer_enum
// ---------------------------------------------------------------------------

test('string_enum coerces like string', (t) => {
  for (const direction of DIRECTIONS) {
    accepts(t, 'string_enum', direction, [['draft', 'draft'], [1, '1'], [false, 'false']]);
    rejects(t, 'string_enum', direction, [{}, ['draft']], 'string');
  }
});

test('integer_enum params and write coerce like integer', (t) => {
  for (const direction of ['params', 'write'] as const) {
    accepts(t, 'integer_enum', direction, [['3', 3], [3, 3]]);
    rejects(t, 'integer_enum', direction, ['1.5', 'abc', '', true, 1.5], 'integer');
  }
});

test('integer_enum read renders like integer read', (t) => {
  accepts(t, 'integer_enum', 'read', [[3, 3], ['3', 3], [3.9, 3]]);
  rejects(t, 'integer_enum', 'read', ['abc'], 'integer');
});

// ---------------------------------------------------------------------------
// big_decimal
// ---------------------------------------------------------------------------

test('big_decimal params and write yield normalized decimal strings', (t) => {
  for (const direction of ['params', 'write'] as const) {
    accepts(t, 'big_decimal', direction, [
      ['070.50', '70.5'],
      [70, '70'],
      ['70.10', '70.1'],
      ['-0', '0'],
      ['-0.00', '0'],
      ['-70.50', '-70.5'],
      ['+5', '5'],
      ['.5', '0.5'],
      ['5.', '5'],
      [' 1.25 ', '1.25'],
      [70.1, '70.1'],
      [1e21, '1000000000000000000000'],
      [1e-7, '0.0000001'],
      [10n, '10'],
      ['12345678901234567890.123456789', '12345678901234567890.123456789'],
    ]);
  }
});

test('big_decimal params and write reject words, exponent strings and empty strings', (t) => {
  for (const direction of ['params', 'write'] as const) rejects(t, 'big_decimal', direction, ['abc', '1e3', '', '.', '-', '1.2.3', true, {}]);
});

test('big_decimal rejects non-finite numbers', (t) => {
  refusesWith(t, type('big_decimal').params, Number.NaN, 'NaN should be type big_decimal', 'big_decimal.params');
  refusesWith(t, type('big_decimal').write, Number.POSITIVE_INFINITY, 'Infinity should be type big_decimal', 'big_decimal.write');
});

test('big_decimal read normalizes what databases return, expanding exponents', (t) => {
  accepts(t, 'big_decimal', 'read', [['70.10', '70.1'], [70.1, '70.1'], ['070.50', '70.5'], ['1.5e-7', '0.00000015'], ['1E3', '1000'], ['-0', '0']]);
  rejects(t, 'big_decimal', 'read', ['abc', '']);
});

// ---------------------------------------------------------------------------
// float
// ---------------------------------------------------------------------------

test('float coercions accept numbers and numeric strings', (t) => {
  for (const direction of DIRECTIONS) {
    accepts(t, 'float', direction, [['1.5', 1.5], [1.5, 1.5], [2, 2], ['2', 2], ['-0.25', -0.25], ['.5', 0.5], ['1e3', 1000], [' 3.5 ', 3.5], [5n, 5]]);
  }
});

test('float coercions turn negative zero into zero', (t) => {
  for (const direction of DIRECTIONS) {
    t.true(Object.is(coercion('float', direction)(-0), 0), `${direction}(-0)`);
    t.true(Object.is(coercion('float', direction)('-0'), 0), `${direction}('-0')`);
  }
});

test('float coercions reject words, empty strings, hex, booleans and non-finite values', (t) => {
  for (const direction of DIRECTIONS) {
    rejects(t, 'float', direction, ['abc', '', '0x10', 'Infinity', '1.5abc', true, [1.5]]);
    refusesWith(t, coercion('float', direction), Number.NaN, 'NaN should be type float', `float.${direction}`);
  }
});

// ---------------------------------------------------------------------------
// boolean
// ---------------------------------------------------------------------------

test('boolean coercions accept true/false, "true"/"false", "1"/"0" and 1/0', (t) => {
  for (const direction of DIRECTIONS) {
    accepts(t, 'boolean', direction, [
      [true, true],
      [false, false],
      ['true', true],
      ['false', false],
      ['1', true],
      ['0', false],
      [1, true],
      [0, false],
      ['TRUE', true],
      [' False ', false],
    ]);
  }
});

test('boolean params and write reject "yes", other numbers and the t/f spellings', (t) => {
  for (const direction of ['params', 'write'] as const) rejects(t, 'boolean', direction, ['yes', 'no', '', 2, -1, 't', 'f', {}, [true]]);
});

test('boolean read also accepts the t/f spellings databases return, and still rejects "yes"', (t) => {
  accepts(t, 'boolean', 'read', [['t', true], ['f', false], ['T', true]]);
  rejects(t, 'boolean', 'read', ['yes', 2]);
});

// ---------------------------------------------------------------------------
// date
// ---------------------------------------------------------------------------

test('date params and write accept a real YYYY-MM-DD and keep it as that string', (t) => {
  for (const direction of ['params', 'write'] as const) {
    accepts(t, 'date', direction, [['2019-01-31', '2019-01-31'], ['2020-02-29', '2020-02-29'], ['2000-02-29', '2000-02-29'], [' 2019-12-01 ', '2019-12-01']]);
  }
});

test('date params and write reject partial dates, impossible dates, times and numbers', (t) => {
  for (const direction of ['params', 'write'] as const) {
    rejects(t, 'date', direction, [
      '2019-01',
      '2019-02-30',
      '2019-02-29',
      '1900-02-29',
      '2019-13-01',
      '2019-00-10',
      '2019-01-00',
      '2019-1-31',
      '2019-01-31T00:00:00Z',
      'abc',
      '',
      20190131,
      true,
    ]);
  }
});

test('date params turn a JS Date into its UTC YYYY-MM-DD', (t) => {
  t.is(type('date').params(new Date(Date.UTC(2019, 0, 31))), '2019-01-31');
  t.is(type('date').params(new Date('2019-01-31T23:59:59.999Z')), '2019-01-31');
});

test('date read of a Date gives YYYY-MM-DD', (t) => {
  accepts(t, 'date', 'read', [
    [new Date(Date.UTC(2019, 0, 31)), '2019-01-31'],
    [new Date(Date.UTC(2020, 1, 29, 12, 30)), '2020-02-29'],
    [new Date('0005-01-01T00:00:00Z'), '0005-01-01'],
  ]);
});

test('date read keeps the date part of a string a database returns', (t) => {
  accepts(t, 'date', 'read', [['2019-01-31', '2019-01-31'], ['2019-01-31 00:00:00', '2019-01-31'], ['2019-01-31T00:00:00.000Z', '2019-01-31']]);
});

test('date read rejects strings that do not start with a real date, numbers and invalid Dates', (t) => {
  rejects(t, 'date', 'read', ['abc', '2019-02-30', '2019-01', 20190131]);
  t.throws(() => type('date').read(new Date(Number.NaN)), { instanceOf: TypeCoercionError });
});

// ---------------------------------------------------------------------------
// datetime
// ---------------------------------------------------------------------------

test('datetime params and write give a Date, taking a time without an offset as UTC', (t) => {
  for (const direction of ['params', 'write'] as const) {
    accepts(t, 'datetime', direction, [
      ['2020-01-02T03:04:05Z', new Date(Date.UTC(2020, 0, 2, 3, 4, 5))],
      ['2020-01-02T03:04:05.123Z', new Date(Date.UTC(2020, 0, 2, 3, 4, 5, 123))],
      ['2020-01-02T03:04:05+02:00', new Date(Date.UTC(2020, 0, 2, 1, 4, 5))],
      ['2020-01-02T03:04:05-0130', new Date(Date.UTC(2020, 0, 2, 4, 34, 5))],
      ['2020-01-02T03:04:05', new Date(Date.UTC(2020, 0, 2, 3, 4, 5))],
      ['2020-01-02 03:04', new Date(Date.UTC(2020, 0, 2, 3, 4))],
      ['2020-01-02', new Date(Date.UTC(2020, 0, 2))],
      ['2020-01-02T03:04:05.123456Z', new Date(Date.UTC(2020, 0, 2, 3, 4, 5, 123))],
    ]);
    const value = coercion('datetime', direction)('2020-01-02T03:04:05Z');
    t.true(value instanceof Date, `${direction} yields a Date`);
  }
});

test('datetime params pass a valid JS Date through', (t) => {
  const date = new Date(Date.UTC(2020, 0, 2, 3, 4, 5));
  t.is((type('datetime').params(date) as Date).getTime(), date.getTime());
});

test('datetime params and write reject words, numbers, impossible dates and times', (t) => {
  for (const direction of ['params', 'write'] as const) {
    rejects(t, 'datetime', direction, [
      'abc',
      '',
      1577934245000,
      0,
      '2020-02-30T00:00:00Z',
      '2020-01-02T24:00:00Z',
      '2020-01-02T03:60:00Z',
      '2020-01-02T03:04:05+25:00',
      '2020-01',
      true,
    ]);
    t.throws(() => coercion('datetime', direction)(new Date(Number.NaN)), { instanceOf: TypeCoercionError }, `${direction} refuses an invalid Date`);
  }
});

test('datetime read gives ISO 8601 in UTC', (t) => {
  accepts(t, 'datetime', 'read', [
    ['2020-01-02 03:04:05.123 +00:00', '2020-01-02T03:04:05.123Z'],
    [new Date(Date.UTC(2020, 0, 2, 3, 4, 5, 123)), '2020-01-02T03:04:05.123Z'],
    ['2020-01-02T03:04:05Z', '2020-01-02T03:04:05.000Z'],
    ['2020-01-02 03:04:05', '2020-01-02T03:04:05.000Z'],
    ['2020-01-02 03:04:05.123456+00', '2020-01-02T03:04:05.123Z'],
    ['2020-01-02 05:04:05.123 +02:00', '2020-01-02T03:04:05.123Z'],
  ]);
});

test('datetime read rejects words and numbers', (t) => {
  rejects(t, 'datetime', 'read', ['abc', '', 1577934245000, '2020-02-30T00:00:00.000Z', true]);
});

// ---------------------------------------------------------------------------
// hash
// ---------------------------------------------------------------------------

test('hash params and read parse a JSON object string and keep objects as they are', (t) => {
  for (const direction of ['params', 'read'] as const) {
    accepts(t, 'hash', direction, [['{"a":1}', { a: 1 }], ['{}', {}], [{ a: { b: [1] } }, { a: { b: [1] } }], [' {"a":"x"} ', { a: 'x' }]]);
  }
});

test('hash params and read reject JSON that is not an object, text that is not JSON, and non-objects', (t) => {
  for (const direction of ['params', 'read'] as const) rejects(t, 'hash', direction, ['[1]', '"a"', '1', 'abc', '{a:1}', [1], 12, true]);
});

test('hash write accepts a JSON object and rejects arrays, strings and other values', (t) => {
  accepts(t, 'hash', 'write', [[{ a: 1 }, { a: 1 }], [{}, {}]]);
  rejects(t, 'hash', 'write', [[1, 2], [], '{"a":1}', 12, true]);
  t.throws(() => type('hash').write(new Date(0)), { instanceOf: TypeCoercionError }, 'a Date is not a JSON object');
});

// ---------------------------------------------------------------------------
// array
// ---------------------------------------------------------------------------

test('array params wrap a single value and parse a JSON array string', (t) => {
  accepts(t, 'array', 'params', [
    [[1, 2], [1, 2]],
    [[], []],
    ['a', ['a']],
    [5, [5]],
    [{ a: 1 }, [{ a: 1 }]],
    ['[1,"b"]', [1, 'b']],
  ]);
});

test('array params reject text that starts like a JSON array but is not one', (t) => {
  rejects(t, 'array', 'params', ['[1,', '[a, b]']);
});

test('array read parses a JSON array string and does not wrap single values', (t) => {
  accepts(t, 'array', 'read', [[[1, 2], [1, 2]], ['[1,2]', [1, 2]], ['[]', []], [' ["x"] ', ['x']]]);
  rejects(t, 'array', 'read', ['a', 5, '{"a":1}', '[1,', { a: 1 }]);
});

test('array write accepts only an actual array', (t) => {
  accepts(t, 'array', 'write', [[[1, 'a'], [1, 'a']], [[], []]]);
  rejects(t, 'array', 'write', ['[1]', 'a', 5, { a: 1 }, true]);
});

// ---------------------------------------------------------------------------
// array_of_<plural>
// ---------------------------------------------------------------------------

test('array_of variants coerce each element with the element type', (t) => {
  accepts(t, 'array_of_strings', 'params', [[[1, 'a', true], ['1', 'a', 'true']]]);
  accepts(t, 'array_of_integers', 'params', [[['1', 2, ' 3 '], [1, 2, 3]]]);
  accepts(t, 'array_of_integer_ids', 'params', [[['1', '2'], [1, 2]]]);
  accepts(t, 'array_of_integer_ids', 'read', [[[1, 2], ['1', '2']]]);
  accepts(t, 'array_of_integer_ids', 'write', [[['1', 2], [1, 2]]]);
  accepts(t, 'array_of_uuids', 'params', [[[UUID], [UUID]]]);
  accepts(t, 'array_of_string_enums', 'params', [[['draft', 'live'], ['draft', 'live']]]);
  accepts(t, 'array_of_integer_enums', 'params', [[['1', 2], [1, 2]]]);
  accepts(t, 'array_of_big_decimals', 'params', [[['070.50', 70, '-0'], ['70.5', '70', '0']]]);
  accepts(t, 'array_of_big_decimals', 'read', [[['70.10', '1.5e-7'], ['70.1', '0.00000015']]]);
  accepts(t, 'array_of_floats', 'params', [[['1.5', 2], [1.5, 2]]]);
  accepts(t, 'array_of_dates', 'params', [[['2019-01-31', '2020-02-29'], ['2019-01-31', '2020-02-29']]]);
  accepts(t, 'array_of_dates', 'read', [[[new Date(Date.UTC(2019, 0, 31))], ['2019-01-31']]]);
  accepts(t, 'array_of_datetimes', 'params', [[['2020-01-02T03:04:05Z'], [new Date(Date.UTC(2020, 0, 2, 3, 4, 5))]]]);
  accepts(t, 'array_of_datetimes', 'read', [[['2020-01-02 03:04:05.123 +00:00'], ['2020-01-02T03:04:05.123Z']]]);
});

test('array_of params wrap a single value and coerce it', (t) => {
  accepts(t, 'array_of_integers', 'params', [['12', [12]], [12, [12]]]);
  accepts(t, 'array_of_uuids', 'params', [[UUID, [UUID]]]);
  accepts(t, 'array_of_dates', 'params', [['2019-01-31', ['2019-01-31']]]);
});

test('array_of read parses a JSON array string and coerces each element', (t) => {
  accepts(t, 'array_of_integers', 'read', [['[1,"2"]', [1, 2]]]);
  accepts(t, 'array_of_integer_ids', 'read', [['[1,2]', ['1', '2']]]);
  accepts(t, 'array_of_strings', 'read', [['["a","b"]', ['a', 'b']]]);
});

test('array_of write requires an array', (t) => {
  rejects(t, 'array_of_integers', 'write', ['12', 12, '[1,2]']);
  rejects(t, 'array_of_strings', 'write', ['a']);
});

test('an empty array is a valid array_of value in every direction', (t) => {
  for (const name of Object.keys(ARRAY_OF)) for (const direction of DIRECTIONS) t.deepEqual(coercion(name, direction)([]), [], `${name}.${direction}`);
});

test('array_of variants reject a bad element, reporting the whole value against the array type', (t) => {
  const bad: Record<string, unknown[]> = {
    array_of_strings: ['a', { b: 1 }],
    array_of_integers: ['1', '1.5'],
    array_of_integer_ids: ['1', 'abc'],
    array_of_uuids: [UUID, 'abc'],
    array_of_string_enums: [['nested']],
    array_of_integer_enums: [1, true],
    array_of_big_decimals: ['1.5', 'abc'],
    array_of_floats: [1.5, 'abc'],
    array_of_dates: ['2019-01-31', '2019-02-30'],
    array_of_datetimes: ['2020-01-02T03:04:05Z', 'abc'],
  };
  t.deepEqual(Object.keys(bad).sort(), Object.keys(ARRAY_OF).sort());
  for (const [name, value] of Object.entries(bad)) {
    for (const direction of ['params', 'write'] as const) rejects(t, name, direction, [value]);
  }
});

test('array_of params reject a bad single value against the array type', (t) => {
  rejects(t, 'array_of_integers', 'params', ['1.5', 'abc', true]);
  rejects(t, 'array_of_dates', 'params', ['2019-01']);
});

test('array_of read rejects a bad element too', (t) => {
  rejects(t, 'array_of_integers', 'read', [['abc']]);
  rejects(t, 'array_of_datetimes', 'read', [['abc']]);
});

// ---------------------------------------------------------------------------
// Replacing and registering types
// ---------------------------------------------------------------------------

test.serial('a coercion replaced in place is what lookups and rendering see', (t) => {
  const string = type('string');
  const original = string.read;
  try {
    string.read = type('integer').read;
    t.is(lookupType('string').read('12'), 12);
    t.is(Types.string?.read('12.7'), 12);
    t.throws(() => lookupType('string').read('abc'), { instanceOf: TypeCoercionError, message: '"abc" should be type integer' });
    t.deepEqual(type('array_of_strings').read(['12']), [12], 'array_of_strings looks its element coercion up at call time');
    t.is(type('string_enum').read('12'), '12', 'other entries keep their own coercions');
  } finally {
    string.read = original;
  }
  t.is(type('string').read(12), '12', 'restored');
  t.deepEqual(type('array_of_strings').read([12]), ['12'], 'restored for the array variant too');
});

test.serial('replacing integer params in place leaves integer_id and integer_enum alone', (t) => {
  const integer = type('integer');
  const original = integer.params;
  try {
    integer.params = (value) => (value === null || value === undefined ? null : -1);
    t.is(lookupType('integer').params('12'), -1);
    t.is(type('integer_id').params('12'), 12);
    t.is(type('integer_enum').params('12'), 12);
  } finally {
    integer.params = original;
  }
  t.is(type('integer').params('12'), 12);
});

test.serial('a custom type registered by assignment is found by lookupType', (t) => {
  const name = `money_type_registry_test_${process.pid}`;
  t.false(Object.hasOwn(Types, name));
  const money: TypeDefinition = {
    params: (v) => (v === null || v === undefined ? null : Math.round(Number(v) * 100)),
    read: (v) => (v === null || v === undefined ? null : `$${(Number(v) / 100).toFixed(2)}`),
    write: (v) => {
      if (v === null || v === undefined) return null;
      if (typeof v !== 'number') throw new TypeCoercionError(name, v);
      return Math.round(v * 100);
    },
    kind: 'scalar',
    canonical_name: name,
    description: 'An amount of money, stored in cents.',
  };
  Types[name] = money;
  try {
    const found = lookupType(name);
    t.is(found, money);
    t.is(found.kind, 'scalar');
    t.is(found.canonical_name, name);
    t.is(found.params('19.99'), 1999);
    t.is(found.read(1999), '$19.99');
    t.is(found.write(19.99), 1999);
    t.throws(() => found.write('lots'), { instanceOf: TypeCoercionError, message: `"lots" should be type ${name}` });
    const error = t.throws(() => lookupType('nope'), { instanceOf: ResourceConfigurationError });
    t.true(error?.message.includes(name), 'the unknown-type error lists the custom type');
    t.is(elementTypeName(name), undefined);
  } finally {
    delete Types[name];
  }
  t.throws(() => lookupType(name), { instanceOf: ResourceConfigurationError });
});

test('datetime read rejects impossible SQLite timestamps, however they are written', (t) => {
  for (const bad of ['2020-13-01 00:00:00.000 +00:00', '2020-02-30 00:00:00.000 +00:00', '2020-01-02 25:61:61.000 +00:00']) {
    const error = t.throws(() => Types.datetime!.read(bad), { instanceOf: TypeCoercionError });
    t.is(error?.message, `${JSON.stringify(bad)} should be type datetime`);
  }
  t.is(Types.datetime!.read('2020-01-31 23:59:59.999 +00:00'), '2020-01-31T23:59:59.999Z');
});
