import { didYouMean } from '../did-you-mean.ts';
import { InvalidQueryError } from '../errors/index.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { allowedNow } from './guard-check.ts';
import { resolveGuard, type Guard } from '../resource/guard.ts';
import { coerceFilterValues, splitFilterValue } from './filter-values.ts';
import type { FilterCondition } from './query-plan.ts';
import { parameterName } from '../query-params.ts';
import { resolveFilters, type ResolvedFilter } from './resolved-filter.ts';

/** Validates and coerces `filter[...]` for one Resource; errors name the exact parameter. */
export interface FilterBuildOptions {
  enforceRequired: boolean;
  /** Filter name → the parameter it came from, for deep filters (`filter[positions.title]`). */
  parameters?: ReadonlyMap<string, string>;
  /**
   * Only filters on attributes the client may read now (`filter[has]`): a
   * related record's guarded attribute must not be probed through its parent.
   */
  readableOnly?: boolean;
}

export function buildFilters(resource: ResourceBase, raw: Record<string, unknown>, options: FilterBuildOptions = { enforceRequired: true }): FilterCondition[] {
  const path = (name: string) => [options.parameters?.get(name) ?? `filter[${name}]`];
  const resourceClass = resource.resourceClass;
  const declared = resolveFilters(resourceClass.config);
  // no filter given and none required: nothing to check, so no guard to ask (every sideload of every request)
  if (Object.keys(raw).length === 0 && !(options.enforceRequired && anyRequired(declared))) return [];
  const filters = usableFilters(resource, declared, options.readableOnly ?? false);
  const conditions: FilterCondition[] = [];
  for (const [name, value] of Object.entries(raw)) {
    const filter = filters.get(name);
    if (!filter) {
      const usable = [...filters.keys()].join(', ') || 'none';
      throw new InvalidQueryError('unknown_filter', `Unknown filter "${name}" on ${resourceClass.type}; ${didYouMean(name, filters.keys())}filterable: ${usable}`, {
        parameter: parameterName(path(name)),
      });
    }
    for (const [operator, operand, parameter] of operatorsOf(value, path(name))) {
      conditions.push(condition(resourceClass, filter, operator, operand, parameter));
    }
  }
  if (options.enforceRequired) checkPresence(resourceClass.type, filters, new Set(Object.keys(raw)));
  return conditions;
}

function anyRequired(filters: Map<string, ResolvedFilter>): boolean {
  for (const filter of filters.values()) if (filter.required) return true;
  return false;
}

/** The names `filter[...]` accepts on a Resource in this request (what the explorer lists). */
export function usableFilterNames(resource: ResourceBase): string[] {
  return [...usableFilters(resource, resolveFilters(resource.resourceClass.config), false).keys()];
}

function usableFilters(resource: ResourceBase, all: Map<string, ResolvedFilter>, readableOnly: boolean): Map<string, ResolvedFilter> {
  const owner = resource.resourceClass.name;
  const readable = (f: ResolvedFilter) => !readableOnly || readableWithoutRecord(resource, f.attribute.readable, `${owner} attribute ${f.name}`);
  return new Map([...all].filter(([, f]) => allowedNow(resource, f.guard, `${owner} filter ${f.name}`) && readable(f)));
}

/**
 * A readable guard refusing now hides the filter. A fixed `readable: false`
 * is no guard (a filter-only column, filterable on the Resource itself), and
 * a guard that needs the record cannot vouch for a query over many, so such
 * an attribute counts as unreadable.
 */
function readableWithoutRecord(resource: ResourceBase, guard: Guard, owner: string): boolean {
  if (typeof guard === 'boolean') return true;
  const resolved = resolveGuard(guard, resource, owner);
  return resolved.arity === 0 && resolved.call(resource);
}

/** `'x'` means eq; `{ gt: 1, lt: 5 }` means several operators, ANDed. */
function operatorsOf(value: unknown, path: string[]): Array<[string, unknown, string]> {
  const isOperatorMap = typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
  if (!isOperatorMap) return [['eq', value, parameterName(path)]];
  return Object.entries(value as Record<string, unknown>).map(([op, v]) => [op, v, parameterName([...path, op])]);
}

function condition(resourceClass: ResourceBase['resourceClass'], filter: ResolvedFilter, operator: string, raw: unknown, parameter: string): FilterCondition {
  const type = resourceClass.type;
  if (!filter.operators.has(operator)) {
    const allowed = [...filter.operators.keys()].join(', ');
    throw new InvalidQueryError(
      'unknown_operator',
      `Unknown operator "${operator}" for filter "${filter.name}" on ${type}; ${didYouMean(operator, filter.operators.keys())}allowed: ${allowed}`,
      { parameter },
    );
  }
  const rules = { single: filter.single, allowNil: filter.allowNil, json: filter.typeName === 'hash', maxValues: resourceClass.maxFilterValues };
  const values = coerceFilterValues(splitFilterValue(raw, rules, parameter), filter.valueType, parameter);
  if (filter.single && values.length !== 1) {
    throw new InvalidQueryError('invalid_filter_value', `Filter "${filter.name}" takes a single value`, { parameter });
  }
  checkAllowList(filter, values, parameter);
  return { filter, operator, values, parameter };
}

function checkAllowList(filter: ResolvedFilter, values: readonly unknown[], parameter: string): void {
  for (const value of values) {
    const key = valueKey(value);
    if (filter.allow && !filter.allow.some((a) => valueKey(a) === key)) {
      const allowed = filter.allow.map((a) => JSON.stringify(a)).join(', ');
      throw new InvalidQueryError('value_not_allowed', `${JSON.stringify(value)} is not allowed for filter "${filter.name}"; allowed: ${allowed}`, { parameter });
    }
    if (filter.deny?.some((d) => valueKey(d) === key)) {
      throw new InvalidQueryError('value_not_allowed', `${JSON.stringify(value)} is denied for filter "${filter.name}"`, { parameter });
    }
  }
}

function valueKey(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'object' ? JSON.stringify(value) : `${typeof value}:${String(value)}`;
}

function checkPresence(type: string, filters: Map<string, ResolvedFilter>, given: Set<string>): void {
  for (const filter of filters.values()) {
    if (filter.required && !given.has(filter.name)) {
      throw new InvalidQueryError('required_filter', `Filter "${filter.name}" is required on ${type}`, {
        parameter: `filter[${filter.name}]`,
      });
    }
    if (!given.has(filter.name)) continue;
    const missing = filter.dependent.filter((d) => !given.has(d));
    if (missing.length > 0) {
      throw new InvalidQueryError(
        'dependent_filter',
        `Filter "${filter.name}" on ${type} must be given together with ${missing.map((m) => `"${m}"`).join(', ')}`,
        { parameter: `filter[${filter.name}]` },
      );
    }
  }
}
