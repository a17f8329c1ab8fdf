import { BUILT_IN_OPERATORS, type BuiltInOperator } from '../adapter/adapter.ts';
import { elementTypeName, Types } from '../types/index.ts';

const NUMERIC: readonly BuiltInOperator[] = ['eq', 'gt', 'gte', 'lt', 'lte'];

const BY_TYPE: Record<string, readonly BuiltInOperator[]> = {
  string: ['eq', 'eql', 'prefix', 'suffix', 'match'],
  uuid: ['eq'],
  string_enum: ['eq', 'eql'],
  // the spec's type table gives integer enums eq/not_eq only: eql means nothing for integers
  integer_enum: ['eq'],
  integer_id: NUMERIC,
  integer: NUMERIC,
  big_decimal: NUMERIC,
  float: NUMERIC,
  date: NUMERIC,
  datetime: NUMERIC,
  boolean: ['eq'],
  hash: ['eq'],
  array: ['eq'],
};

/** Types compared ignoring case by `eq` (uuid is case-sensitive by design). */
const TEXT_TYPES = new Set(['string', 'string_enum']);

/** The type a filter value is coerced with: an array type filters by its elements. */
export function filterValueType(typeName: string): string {
  return elementTypeName(typeName) ?? typeName;
}

/** A type's default operators, each followed by its `not_` form. */
export function defaultOperators(typeName: string): string[] {
  const base = filterValueType(typeName);
  const canonical = BY_TYPE[base] ? base : Types[base]?.canonical_name;
  const operators = (canonical && BY_TYPE[canonical]) || ['eq'];
  return operators.flatMap((op) => [op, `not_${op}`]);
}

export function isTextType(typeName: string): boolean {
  return TEXT_TYPES.has(filterValueType(typeName));
}

/** `not_prefix` → `{ operator: 'prefix', negated: true }`; undefined for custom names. */
export function builtInOperator(name: string): { operator: BuiltInOperator; negated: boolean } | undefined {
  const negated = name.startsWith('not_');
  const operator = (negated ? name.slice(4) : name) as BuiltInOperator;
  return BUILT_IN_OPERATORS.includes(operator) ? { operator, negated } : undefined;
}
