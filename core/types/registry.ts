import { ResourceConfigurationError, TypeCoercionError } from '../errors/index.ts';
import {
  readDateTime, toArray, toBoolean, toDate, toDateTime, toDecimal, toFloat, toHash, toInteger, toString, toUuid,
} from './scalar-coercions.ts';
import type { Coercion, TypeDefinition } from './type-definition.ts';

function scalar(name: string, description: string, coercions: Pick<TypeDefinition, 'params' | 'read' | 'write'>): TypeDefinition {
  return { ...coercions, kind: 'scalar', canonical_name: name, description };
}

const integer = toInteger('integer');
const string = toString('string');

const BASE: Record<string, TypeDefinition> = {
  string: scalar('string', 'A string.', { params: string, read: string, write: string }),
  integer: scalar('integer', 'An integer.', { params: integer, read: integer, write: integer }),
  integer_id: scalar('integer_id', 'An integer id, rendered as a string.', { params: integer, read: string, write: integer }),
  uuid: scalar('uuid', 'A UUID string; compared case-sensitively.', { params: toUuid('uuid'), read: string, write: toUuid('uuid') }),
  string_enum: scalar('string_enum', 'A string from a fixed list of allowed values.', { params: string, read: string, write: string }),
  integer_enum: scalar('integer_enum', 'An integer from a fixed list of allowed values.', { params: integer, read: integer, write: integer }),
  big_decimal: scalar('big_decimal', 'A decimal number, rendered as a string to keep its precision.', {
    params: toDecimal('big_decimal'), read: toDecimal('big_decimal'), write: toDecimal('big_decimal'),
  }),
  float: scalar('float', 'A floating-point number.', { params: toFloat('float'), read: toFloat('float'), write: toFloat('float') }),
  boolean: scalar('boolean', 'true or false.', { params: toBoolean('boolean'), read: toBoolean('boolean'), write: toBoolean('boolean') }),
  date: scalar('date', 'A calendar date, YYYY-MM-DD.', { params: toDate('date', true), read: toDate('date', false), write: toDate('date', true) }),
  datetime: scalar('datetime', 'A point in time, ISO 8601.', {
    params: toDateTime('datetime'), read: readDateTime('datetime'), write: toDateTime('datetime'),
  }),
  hash: {
    params: toHash('hash', true), read: toHash('hash', true), write: toHash('hash', false),
    kind: 'record', canonical_name: 'hash', description: 'A JSON object.',
  },
  array: {
    params: toArray('array', true, true), read: toArray('array', true, false), write: toArray('array', false, false),
    kind: 'array', canonical_name: 'array', description: 'A JSON array.',
  },
};

/** Types with an `array_of_<plural>` variant, and that plural. */
const PLURALS: Record<string, string> = {
  string: 'strings', integer: 'integers', integer_id: 'integer_ids', uuid: 'uuids', string_enum: 'string_enums',
  integer_enum: 'integer_enums', big_decimal: 'big_decimals', float: 'floats', date: 'dates', datetime: 'datetimes',
};

function arrayOf(elementName: string, plural: string): TypeDefinition {
  const name = `array_of_${plural}`;
  const element = BASE[elementName]!;
  const each = (pick: (t: TypeDefinition) => Coercion, wrap: boolean, parse: boolean): Coercion => {
    const asArray = toArray(name, parse, wrap);
    return (value) => {
      const list = asArray(value) as unknown[] | null;
      if (list === null) return null;
      try {
        return list.map((item) => pick(element)(item));
      } catch (error) {
        if (error instanceof TypeCoercionError) throw new TypeCoercionError(name, value);
        throw error;
      }
    };
  };
  return {
    params: each((t) => t.params, true, false),
    read: each((t) => t.read, false, true),
    write: each((t) => t.write, false, false),
    kind: 'array',
    canonical_name: name,
    description: `An array of ${plural.replace(/_/g, ' ')}.`,
  };
}

/**
 * The type registry. A plain mutable object on purpose: applications replace
 * a coercion in place (`Types.string.read = …`) or register their own type
 * by assignment (`Types.money = { params, read, write, kind, canonical_name, description }`).
 */
export const Types: Record<string, TypeDefinition> = { ...BASE };
for (const [element, plural] of Object.entries(PLURALS)) Types[`array_of_${plural}`] = arrayOf(element, plural);

const ELEMENT_BY_ARRAY = new Map(Object.entries(PLURALS).map(([element, plural]) => [`array_of_${plural}`, element]));

/** `array_of_integers` → `integer`; undefined for anything else. */
export function elementTypeName(name: string): string | undefined {
  return ELEMENT_BY_ARRAY.get(name);
}

export function lookupType(name: string): TypeDefinition {
  const type = Types[name];
  if (!type) {
    throw new ResourceConfigurationError(`Unknown type "${name}"; known types: ${Object.keys(Types).join(', ')}`);
  }
  return type;
}
