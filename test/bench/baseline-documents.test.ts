import test from 'ava';
import { postgresTimestamp, sqliteTimestamp, stringValue } from '../../bench/baselines/document-writer.ts';
import { openFixture, removeFixtureFiles } from '../../bench/fixtures.ts';
import { describeDifference, firstDifference } from '../../bench/same-bytes.ts';
import { baselineDocumentTests } from '../support/baseline-documents.ts';

/**
 * The hand-written read baselines of `npm run bench` on SQLite: (a)
 * Sequelize, (b) node-sqlite3 and (c) better-sqlite3, each over HTTP and
 * in-process, against Mural's HTTP body (PostgreSQL's (b):
 * baseline-documents.servers.test.ts). Nothing is timed.
 */
baselineDocumentTests('SQLite', () => openFixture(60));
test.after.always(() => removeFixtureFiles());

test('a difference is reported at its first byte, with the text around it', (t) => {
  t.is(firstDifference('{"a":"2020-01-30T00:00:00.000Z"}', '{"a":"2020-01-30T00:00:00.000Z"}'), -1);
  t.is(firstDifference('{"a":"2020-01-30T00:00:00.000Z"}', '{"a":"2020-01-30 00:00:00.000Z"}'), 16);
  t.is(firstDifference('{"a":1}', '{"a":1}\n'), 7);
  t.is(firstDifference('"é"', '"e"'), 1);
  const message = describeDifference('{"active":true}', '{"active":1}', '(b)');
  t.regex(message!, /^\(b\) differs from Mural's body at byte 10/);
  t.regex(message!, /Mural: {4}…\{"active":true\}…\n {2}received: …\{"active":1\}…$/);
});

test('the writer escapes strings as JSON.stringify does', (t) => {
  for (const value of ['Ada', 'O"Brien', 'back\\slash', 'tab\there', 'nul\u0000', 'é ü 日本', '😀', 'lone \ud800 surrogate', '\udc00', '\u2028\u2029', '']) {
    t.is(stringValue(value), JSON.stringify(value), value);
  }
  t.is(stringValue(null), 'null');
});

test('timestamps become the ISO 8601 text Mural renders, milliseconds truncated', (t) => {
  t.is(sqliteTimestamp('2020-01-30 07:08:09.123 +00:00'), '2020-01-30T07:08:09.123Z');
  t.is(sqliteTimestamp('2020-01-30T07:08:09.123Z'), '2020-01-30T07:08:09.123Z');
  t.is(postgresTimestamp('2020-01-30 07:08:09+00'), '2020-01-30T07:08:09.000Z');
  t.is(postgresTimestamp('2020-01-30 07:08:09.1+00'), '2020-01-30T07:08:09.100Z');
  t.is(postgresTimestamp('2020-01-30 07:08:09.123456+00'), '2020-01-30T07:08:09.123Z');
  t.is(postgresTimestamp('2020-01-30 07:08:09.999999+00'), '2020-01-30T07:08:09.999Z');
  t.is(postgresTimestamp(new Date(Date.UTC(2020, 0, 30, 7, 8, 9, 5))), '2020-01-30T07:08:09.005Z');
});
