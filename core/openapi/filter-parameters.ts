import { isTextType } from '../query/default-operators.ts';
import { resolveFilters } from '../query/resolved-filter.ts';
import type { FilterSchema } from '../schema/schema-types.ts';
import type { DescribedResource } from './openapi-input.ts';
import type { JsonSchema, ParameterObject } from './openapi-types.ts';
import { componentKey } from './references.ts';
import { joined } from './sentences.ts';
import { jsonValue, valueSchema } from './value-schemas.ts';

const OPERATOR_TEXT: Readonly<Record<string, string>> = {
  eq: 'equals one of the values',
  eql: 'equals one of the values exactly (case-sensitive)',
  prefix: 'starts with one of the values',
  suffix: 'ends with one of the values',
  match: 'contains one of the values',
  gt: 'is greater than the value',
  gte: 'is greater than or equal to the value',
  lt: 'is less than the value',
  lte: 'is less than or equal to the value',
};

/**
 * `filter[<name>][<operator>]` for every filter of a Resource and each of its
 * operators, keyed by the component name they are stored under; plus
 * `filter[<name>]`, the `eq` shorthand, where `eq` is an operator.
 */
export function filterParameters(described: DescribedResource): Record<string, ParameterObject> {
  const { resource, schema, component } = described;
  const parameters: Record<string, ParameterObject> = {};
  const resolved = resolveFilters(resource.config);
  for (const [name, filter] of Object.entries(schema.filters)) {
    const allowNil = resolved.get(name)?.allowNil ?? false;
    const custom = (operator: string) => resolved.get(name)?.operators.get(operator)?.kind === 'custom';
    const notes = filterNotes(name, filter);
    if (filter.operators.includes('eq')) {
      parameters[componentKey(component, 'filter', name)] = parameter(`filter[${name}]`, filter, allowNil, resource.maxFilterValues, joined(`Shorthand for \`filter[${name}][eq]\`.`, notes));
    }
    for (const operator of filter.operators) {
      const text = custom(operator) ? `matches the value(s) by the Resource's own "${operator}" operator` : operatorText(operator, filter.type);
      const description = joined(`Records whose ${name} ${text}.`, notes);
      parameters[componentKey(component, 'filter', name, operator)] = parameter(`filter[${name}][${operator}]`, filter, allowNil, resource.maxFilterValues, description);
    }
  }
  return { ...parameters, ...relatedFilterParameters(described) };
}

/**
 * `filter[has]` and `filter[has_no]`, one deepObject each: the keys are
 * paths through relationships to a filter of the related Resource, checked
 * against the relationships this Resource declares; the related filters'
 * own names, types and operators are in their Resources' parameters.
 */
function relatedFilterParameters({ resource, component, view }: DescribedResource): Record<string, ParameterObject> {
  const relationships = view.relationships(resource, 'read').map((r) => r.name);
  if (relationships.length === 0) return {};
  const escaped = relationships.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const schema = {
    type: 'object',
    propertyNames: { pattern: `^(${escaped.join('|')})(\\.[^.\\[\\]]+)+$` },
    additionalProperties: { type: 'string' },
  };
  const describe = (keyword: string, what: string) => ({
    name: `filter[${keyword}]`,
    in: 'query' as const,
    style: 'deepObject' as const,
    explode: true,
    description: joined(
      `Records ${what} related record meeting every condition given on the same relationship path: \`filter[${keyword}][positions.title]=Manager\`,`,
      `\`filter[${keyword}][positions.department.name][prefix]=Eng\`. A path names relationships of ${resource.type} (${relationships.join(', ')}), then a filter of the Resource it leads to, with that filter's type and operators (\`[<operator>]\` after the path).`,
      'Guarded relationships and attributes answer as unknown filters (400) unless their guards allow.',
    ),
    schema,
  });
  return {
    [componentKey(component, 'filter', 'has')]: describe('has', 'with at least one'),
    [componentKey(component, 'filter', 'has_no')]: describe('has_no', 'with no'),
  };
}

function parameter(name: string, filter: FilterSchema, allowNil: boolean, maxValues: number, description: string): ParameterObject {
  let value = valueSchema(filter.type, 'query', filter.allow);
  if (filter.deny) value = { ...value, not: { enum: filter.deny.map(jsonValue) } };
  // `null` (the word) matches missing values where the filter allows it
  if (allowNil) value = { anyOf: [value, { const: 'null' }] };
  // a hash filter reads JSON text, a single one (booleans) one value; the others take comma lists
  const list = !filter.single && filter.type !== 'hash';
  const schema: JsonSchema = list ? { type: 'array', items: value, minItems: 1, maxItems: maxValues } : value;
  return {
    name,
    in: 'query',
    description,
    ...(list ? { style: 'form' as const, explode: false } : {}),
    schema,
    ...(filter.guard ? { 'x-mural-guard': true as const } : {}),
  };
}

function operatorText(operator: string, type: string): string {
  const negated = operator.startsWith('not_');
  const base = negated ? operator.slice(4) : operator;
  const text = OPERATOR_TEXT[base] ?? 'matches';
  const described = base === 'eq' && isTextType(type) ? `${text}, ignoring case` : text;
  return negated ? `does not satisfy: ${described}` : described;
}

function filterNotes(name: string, filter: FilterSchema): string {
  return joined(
    filter.required ? `Required: every request must filter on ${name}.` : null,
    filter.dependencies ? `Needs ${filter.dependencies.map((d) => `filter[${d}]`).join(' and ')} too.` : null,
    filter.guard ? 'Guarded: available only when the guard allows (400 otherwise).' : null,
  );
}
