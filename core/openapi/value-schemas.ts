import { elementTypeName, Types } from '../types/index.ts';
import type { JsonSchema, JsonValue } from './openapi-types.ts';

/**
 * The JSON Schema of a value of each registered type, in the three places a
 * value appears: rendered in a response (`read`), sent in a body (`write`,
 * which also takes the looser forms the write coercions accept), and sent as
 * a filter value in a query string (`query`).
 */
export type ValueDirection = 'read' | 'write' | 'query';

/** What every big_decimal renders as: normalized plain decimal notation (`"-70.5"`). */
const DECIMAL_TEXT: JsonSchema = { type: 'string', pattern: '^-?[0-9]+(\\.[0-9]+)?$' };
/** What a client may send as a decimal or integer: plain notation, a sign, no exponent. */
const DECIMAL_INPUT: JsonSchema = { type: 'string', pattern: '^\\s*[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)\\s*$' };
const INTEGER_TEXT: JsonSchema = { type: 'string', pattern: '^\\s*[+-]?[0-9]+\\s*$' };

type Directions = Record<ValueDirection, JsonSchema>;

const same = (schema: JsonSchema): Directions => ({ read: schema, write: schema, query: schema });

const BUILT_IN: Readonly<Record<string, Directions>> = {
  string: same({ type: 'string' }),
  uuid: same({ type: 'string', format: 'uuid' }),
  string_enum: same({ type: 'string' }),
  integer_id: {
    read: { type: 'string', pattern: '^-?[0-9]+$' },
    write: { anyOf: [{ type: 'integer' }, INTEGER_TEXT] },
    query: { type: 'integer' },
  },
  integer: same({ type: 'integer' }),
  integer_enum: same({ type: 'integer' }),
  big_decimal: { read: DECIMAL_TEXT, write: { anyOf: [{ type: 'number' }, DECIMAL_INPUT] }, query: DECIMAL_INPUT },
  float: same({ type: 'number' }),
  boolean: same({ type: 'boolean' }),
  date: same({ type: 'string', format: 'date' }),
  datetime: same({ type: 'string', format: 'date-time' }),
  hash: { read: { type: 'object' }, write: { type: 'object' }, query: { type: 'string', contentMediaType: 'application/json' } },
  array: { read: { type: 'array', items: {} }, write: { type: 'array', items: {} }, query: {} },
};

/**
 * A value of `typeName`. An application's own types are described by their
 * kind alone, with the registry's description: their coercions say what
 * they accept, and a function cannot be read as a schema.
 */
export function valueSchema(typeName: string, direction: ValueDirection, allow?: readonly unknown[]): JsonSchema {
  const element = elementTypeName(typeName);
  if (element !== undefined) {
    const items = valueSchema(element, direction, allow);
    // a filter on an array attribute compares its elements
    return direction === 'query' ? items : { type: 'array', items };
  }
  const known = Object.hasOwn(BUILT_IN, typeName) ? BUILT_IN[typeName]![direction] : ownTypeSchema(typeName);
  return allow && allow.length > 0 ? { ...known, enum: allow.map(jsonValue) } : known;
}

function ownTypeSchema(typeName: string): JsonSchema {
  const type = Object.hasOwn(Types, typeName) ? Types[typeName] : undefined;
  if (!type) return {};
  const described = { description: type.description };
  if (type.kind === 'array') return { type: 'array', items: {}, ...described };
  if (type.kind === 'record') return { type: 'object', ...described };
  return described;
}

/** The schema, also allowing `null`: any attribute may be null in a row or a body. */
export function orNull(schema: JsonSchema): JsonSchema {
  const { type, enum: values } = schema;
  if (typeof type === 'string') {
    return { ...schema, type: [type, 'null'], ...(Array.isArray(values) ? { enum: [...values, null] } : {}) };
  }
  if (Array.isArray(schema.anyOf) && Object.keys(schema).length === 1) return { anyOf: [...schema.anyOf, { type: 'null' }] };
  if (type === undefined && schema.anyOf === undefined && values === undefined) return schema;
  return { anyOf: [schema, { type: 'null' }] };
}

/** An `allow` or `deny` entry as JSON: dates as their ISO text, as schema.json has them. */
export function jsonValue(value: unknown): JsonValue {
  if (value instanceof Date) return value.toISOString();
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'object') return JSON.parse(JSON.stringify(value)) as JsonValue;
  return String(value);
}
