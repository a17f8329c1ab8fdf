import { TypeCoercionError, InvalidQueryError } from '../errors/index.ts';
import type { TypeDefinition } from '../types/index.ts';

export interface FilterValueRules {
  single: boolean;
  allowNil: boolean;
  /** Hash filters read JSON from the query string. */
  json: boolean;
  /** At most this many values (the Resource's `maxFilterValues`); unlimited when absent. */
  maxValues?: number;
}

/**
 * Turns a raw filter value into the list of values an operator receives,
 * following the spec's parsing rules: comma lists, `{{…}}` kept whole,
 * `[…]` explicit arrays, single filters untouched, JSON for hashes, and
 * `null` as a null only when the filter allows it.
 */
export function splitFilterValue(raw: unknown, rules: FilterValueRules, parameter: string): unknown[] {
  const max = rules.maxValues ?? Infinity;
  if (Array.isArray(raw)) return checkCount(raw, max, parameter).map((v) => nullify(v, rules));
  if (typeof raw !== 'string') return [raw];
  if (rules.allowNil && raw === 'null') return [null];
  if (rules.single) return [raw];
  if (rules.json) return checkCount(parseJsonValues(raw, parameter), max, parameter);
  const trimmed = raw.trim();
  const inner = trimmed.startsWith('[') && trimmed.endsWith(']') ? trimmed.slice(1, -1) : raw;
  const parts = splitCommas(inner, max);
  return checkCount(parts, max, parameter).map((v) => nullify(v, rules));
}

/** Each value is a bound parameter or an OR branch in SQL: a filter may not carry more than `max`. */
function checkCount<T>(values: T[], max: number, parameter: string): T[] {
  if (values.length <= max) return values;
  throw new InvalidQueryError('too_many_filter_values', `${parameter} has more than ${max} values; the maximum is ${max}`, { parameter });
}

function nullify(value: unknown, rules: FilterValueRules): unknown {
  return rules.allowNil && value === 'null' ? null : value;
}

/** Splits on commas outside `{{ }}` and unwraps the braces; stops once it has more than `max` parts. */
export function splitCommas(value: string, max = Infinity): string[] {
  const parts: string[] = [];
  let current = '';
  let depth = 0;
  for (let i = 0; i < value.length; i++) {
    if (value.startsWith('{{', i)) {
      depth++;
      i++;
      continue;
    }
    if (depth > 0 && value.startsWith('}}', i)) {
      depth--;
      i++;
      continue;
    }
    const char = value[i]!;
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
      if (parts.length > max) return parts;
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts;
}

function parseJsonValues(raw: string, parameter: string): unknown[] {
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    throw new InvalidQueryError('invalid_filter_value', `${JSON.stringify(raw)} is not valid JSON`, { parameter });
  }
}

/** Coerces every non-null value with the type's `params` coercion. */
export function coerceFilterValues(values: readonly unknown[], type: TypeDefinition, parameter: string): unknown[] {
  return values.map((value) => {
    if (value === null) return null;
    try {
      return type.params(value);
    } catch (error) {
      if (error instanceof TypeCoercionError) throw error.at({ parameter });
      throw error;
    }
  });
}
