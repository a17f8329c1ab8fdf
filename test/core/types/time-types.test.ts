import test from 'ava';
import { Types } from '../../../core/types/index.ts';
import { coerces, refuses } from './coercion-assertions.ts';

test('date params and write accept real YYYY-MM-DD dates and JS Dates (by their UTC day)', (t) => {
  const pairs = [
    ['2019-01-31', '2019-01-31'], [' 2019-01-31 ', '2019-01-31'], ['2020-02-29', '2020-02-29'], ['2000-02-29', '2000-02-29'],
    ['0019-01-01', '0019-01-01'], [new Date('2019-01-31T23:30:00Z'), '2019-01-31'], [new Date('2019-01-31T00:00:00-05:00'), '2019-01-31'],
  ] as const;
  for (const direction of ['params', 'write'] as const) coerces(t, Types.date![direction], pairs);
});

test('date params and write refuse partial dates, impossible dates, times and other values', (t) => {
  const refused = ['2019-01', '2019', '2019-02-30', '2019-02-29', '1900-02-29', '2019-13-01', '2019-00-10', '2019-01-00',
    '2019-1-5', '2019-01-31T10:00', 'abc', '', 20190131, new Date(Number.NaN), {}];
  for (const direction of ['params', 'write'] as const) refuses(t, Types.date![direction], 'date', refused);
});

test('date failures read "<value> should be type date"', (t) => {
  t.is(t.throws(() => Types.date!.params('2019-01'))?.message, '"2019-01" should be type date');
});

test('date read renders YYYY-MM-DD from a Date or from the start of a database string', (t) => {
  coerces(t, Types.date!.read, [
    [new Date('2019-01-31T00:00:00Z'), '2019-01-31'], ['2019-01-31', '2019-01-31'],
    ['2019-01-31 00:00:00', '2019-01-31'], ['2019-01-31T00:00:00.000Z', '2019-01-31'],
  ]);
  refuses(t, Types.date!.read, 'date', ['31/01/2019', '2019-02-30 00:00:00', 5]);
});

const at = (iso: string) => new Date(iso);

test('datetime params and write turn ISO 8601 strings into Dates, taking a missing offset as UTC', (t) => {
  const pairs = [
    ['2020-01-02', at('2020-01-02T00:00:00Z')],
    ['2020-01-02T03:04:05Z', at('2020-01-02T03:04:05Z')],
    ['2020-01-02T03:04:05.123+02:00', at('2020-01-02T01:04:05.123Z')],
    ['2020-01-02T03:04:05-0500', at('2020-01-02T08:04:05Z')],
    ['2020-01-02T03:04', at('2020-01-02T03:04:00Z')],
    ['2020-01-02T03:04:05', at('2020-01-02T03:04:05Z')],
    ['2020-01-02t03:04:05z', at('2020-01-02T03:04:05Z')],
    [at('2020-01-02T03:04:05Z'), at('2020-01-02T03:04:05Z')],
  ] as const;
  for (const direction of ['params', 'write'] as const) coerces(t, Types.datetime![direction], pairs);
});

test('datetime params and write refuse numbers, words, impossible dates and times', (t) => {
  const refused = [1577934245000, 'abc', '', '2020-13-01', '2020-02-30T00:00:00Z', '2020-01-02T24:00:00Z', '2020-01-02T03:60',
    '2020-01-02T03:04:05+25:00', '2020-01', '02/01/2020', 'Thu, 02 Jan 2020 03:04:05 GMT', new Date(Number.NaN), true];
  for (const direction of ['params', 'write'] as const) refuses(t, Types.datetime![direction], 'datetime', refused);
});

test('datetime failures read "<value> should be type datetime"', (t) => {
  t.is(t.throws(() => Types.datetime!.write(1577934245000))?.message, '1577934245000 should be type datetime');
});

test('datetime read renders ISO 8601 in UTC from Dates and from the strings databases return', (t) => {
  coerces(t, Types.datetime!.read, [
    [at('2020-01-02T03:04:05Z'), '2020-01-02T03:04:05.000Z'],
    ['2020-01-02 03:04:05.123 +00:00', '2020-01-02T03:04:05.123Z'],
    ['2020-01-02 03:04:05', '2020-01-02T03:04:05.000Z'],
    ['2020-01-02 03:04:05.123456+00', '2020-01-02T03:04:05.123Z'],
    ['2020-01-02 05:04:05.999999+02', '2020-01-02T03:04:05.999Z'],
    ['2020-01-02T03:04:05.123+05:30', '2020-01-01T21:34:05.123Z'],
  ]);
  refuses(t, Types.datetime!.read, 'datetime', ['yesterday', 0]);
});

test("datetime read takes SQLite's UTC text at face value only when it names a real day and time", (t) => {
  coerces(t, Types.datetime!.read, [
    ['2019-01-31 23:59:59.999 +00:00', '2019-01-31T23:59:59.999Z'],
    ['2020-02-29 10:00:00.000 +00:00', '2020-02-29T10:00:00.000Z'],
    ['2000-02-29 10:00:00.000 +00:00', '2000-02-29T10:00:00.000Z'],
    ['2019-04-30 00:00:00.000 +00:00', '2019-04-30T00:00:00.000Z'],
  ]);
  refuses(t, Types.datetime!.read, 'datetime', [
    '2019-02-29 10:00:00.000 +00:00', '1900-02-29 10:00:00.000 +00:00', '2019-04-31 00:00:00.000 +00:00',
    '2019-13-01 00:00:00.000 +00:00', '2019-01-00 00:00:00.000 +00:00', '2019-01-01 24:00:00.000 +00:00',
  ]);
});

test('datetime read takes its own ISO 8601 form at face value only when it names a real day and time', (t) => {
  coerces(t, Types.datetime!.read, [
    ['2020-01-02T03:04:05.123Z', '2020-01-02T03:04:05.123Z'],
    ['2020-02-29T23:59:59.999Z', '2020-02-29T23:59:59.999Z'],
    // not the exact form (no milliseconds, another zone): parsed, as before
    ['2020-01-02T03:04:05Z', '2020-01-02T03:04:05.000Z'],
    ['2020-01-02T05:04:05.123+02:00', '2020-01-02T03:04:05.123Z'],
  ]);
  refuses(t, Types.datetime!.read, 'datetime', ['2019-02-29T10:00:00.000Z', '2019-13-01T00:00:00.000Z', '2019-01-01T24:00:00.000Z', '2019-04-31T00:00:00.000Z']);
});
