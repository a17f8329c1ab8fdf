import { readBoolean, toBoolean } from './boolean-coercions.ts';
import { readDate, toDate } from './date-coercions.ts';
import { readDateTime, toDateTime } from './datetime-coercions.ts';
import { readDecimal, toDecimal } from './decimal-coercions.ts';
import { toArray, toHash } from './json-coercions.ts';
import { readInteger, toFloat, toInteger } from './number-coercions.ts';
import { toText, toUuid } from './text-coercions.ts';
import type { Coercion, TypeDefinition } from './type-definition.ts';

type Coercions = Pick<TypeDefinition, 'params' | 'read' | 'write'>;

function scalar(name: string, description: string, coercions: Coercions): TypeDefinition {
  return { ...coercions, kind: 'scalar', canonical_name: name, description };
}

/** One coercion for all three directions. */
const same = (coerce: Coercion): Coercions => ({ params: coerce, read: coerce, write: coerce });

/*
 * integer_id and integer_enum share integer's coercion functions (the spec's
 * "uses integer coercion"), so their failures read "should be type integer".
 * They share the functions, not the entry: replacing `Types.integer.params`
 * in place leaves them alone.
 */
const integer = toInteger('integer');
const text = toText('string');

/** A fresh copy of every built-in scalar, hash and array type (array_of_* variants are added by the registry). */
export function builtInTypes(): Record<string, TypeDefinition> {
  return {
    string: scalar('string', 'A string of text.', same(text)),
    integer: scalar('integer', 'A whole number within JavaScript\'s safe integer range.', {
      params: integer, read: readInteger('integer'), write: integer,
    }),
    integer_id: scalar('integer_id', 'An integer identifier: filtered and stored as an integer, rendered as a string.', {
      params: integer, read: text, write: integer,
    }),
    uuid: scalar('uuid', 'A UUID in its 8-4-4-4-12 hexadecimal form, compared case-sensitively.', {
      params: toUuid('uuid'), read: text, write: toUuid('uuid'),
    }),
    string_enum: scalar('string_enum', 'A string limited to the values the attribute allows.', same(text)),
    integer_enum: scalar('integer_enum', 'An integer limited to the values the attribute allows.', {
      params: integer, read: readInteger('integer'), write: integer,
    }),
    big_decimal: scalar('big_decimal', 'An exact decimal number, rendered as a string so no precision is lost.', {
      params: toDecimal('big_decimal'), read: readDecimal('big_decimal'), write: toDecimal('big_decimal'),
    }),
    float: scalar('float', 'A floating-point number.', same(toFloat('float'))),
    boolean: scalar('boolean', 'Either true or false; queries may also say 1 or 0.', {
      params: toBoolean('boolean'), read: readBoolean('boolean'), write: toBoolean('boolean'),
    }),
    date: scalar('date', 'A calendar date without a time, written YYYY-MM-DD.', {
      params: toDate('date'), read: readDate('date'), write: toDate('date'),
    }),
    datetime: scalar('datetime', 'A point in time, written in ISO 8601 and rendered in UTC.', {
      params: toDateTime('datetime'), read: readDateTime('datetime'), write: toDateTime('datetime'),
    }),
    hash: {
      params: toHash('hash', true), read: toHash('hash', true), write: toHash('hash', false),
      kind: 'record', canonical_name: 'hash', description: 'A JSON object with any keys and values.',
    },
    array: {
      params: toArray('array', true, true), read: toArray('array', true, false), write: toArray('array', false, false),
      kind: 'array', canonical_name: 'array', description: 'A JSON array of values of any type.',
    },
  };
}
