import { ResourceConfigurationError } from '../errors/index.ts';
import { lookupType } from '../types/index.ts';
import { buildAttribute, type AttributeBlock, type AttributeOptions } from './attribute.ts';
import type { FilterOptions, OperatorFunction } from './filter-definition.ts';
import type { ResourceConfig } from './resource-config.ts';
import { bumpRevision } from './revision.ts';
import { BUILT_IN_CALCULATIONS, type BuiltInCalculation, type SortDirection } from '../adapter/adapter.ts';
import type { SortFunction, SortOptions } from './sort-definition.ts';
import type { CalculationFunction } from './stat-definition.ts';

/*
 * The DSL's bookkeeping: each function records one declaration in a Resource's
 * config. Nothing here queries or renders; later stages read what is recorded.
 */

const ENUM_TYPES = new Set(['string_enum', 'integer_enum', 'array_of_string_enums', 'array_of_integer_enums']);

function defaultsOf(config: ResourceConfig) {
  const s = config.settings;
  return {
    readable: s.attributesReadableByDefault,
    writable: s.attributesWritableByDefault,
    sortable: s.attributesSortableByDefault,
    filterable: s.attributesFilterableByDefault,
    schema: s.attributesSchemaByDefault,
  };
}

export function declareAttribute(
  config: ResourceConfig,
  owner: string,
  name: string,
  type: string,
  options: AttributeOptions,
  block: AttributeBlock | undefined,
  extra: boolean,
): void {
  lookupType(type);
  if (ENUM_TYPES.has(type) && !options.allow) {
    throw new ResourceConfigurationError(`${owner}: attribute "${name}" of type ${type} needs an allow: list`);
  }
  const attribute = buildAttribute(name, type, options, defaultsOf(config), extra, block);
  if (!extra && attribute.filterable !== false) refuseReservedFilter(owner, name, 'a filterable attribute');
  bumpRevision();
  config.attributes.set(name, extra ? { ...attribute, sortable: false, filterable: false } : attribute);
}

const FILTER_OPTION_KEYS = new Set([
  'only', 'except', 'allow', 'deny', 'reject', 'single', 'required', 'dependent', 'allowNil', 'guard', 'description',
]);

/** Splits `filter(name, type?, options?, operators?)`'s loose arguments. */
export function parseFilterArguments(args: unknown[]): {
  type?: string;
  options: FilterOptions;
  operators: Record<string, OperatorFunction>;
} {
  const rest = [...args];
  const type = typeof rest[0] === 'string' ? (rest.shift() as string) : undefined;
  let options: FilterOptions = {};
  let operators: Record<string, OperatorFunction> = {};
  for (const arg of rest) {
    if (arg === undefined) continue;
    if (typeof arg !== 'object' || arg === null) throw new ResourceConfigurationError(`filter: unexpected argument ${String(arg)}`);
    const entries = Object.entries(arg);
    const isOperators = entries.length > 0 && entries.every(([k, v]) => typeof v === 'function' && !FILTER_OPTION_KEYS.has(k));
    if (isOperators) operators = arg as Record<string, OperatorFunction>;
    else options = arg as FilterOptions;
  }
  return { type, options, operators };
}

/** `filter[has]` and `filter[has_no]` take conditions on related records (core/query/related-filters.ts). */
export const RELATED_FILTER_NAMES: readonly string[] = ['has', 'has_no'];

function refuseReservedFilter(owner: string, name: string, what: string): void {
  if (RELATED_FILTER_NAMES.includes(name)) {
    throw new ResourceConfigurationError(`${owner}: "${name}" cannot be ${what}: filter[${name}] is reserved for conditions on related records; declare it filterable: false or rename it`);
  }
}

export function declareFilter(config: ResourceConfig, owner: string, name: string, args: unknown[]): void {
  refuseReservedFilter(owner, name, 'a filter');
  bumpRevision();
  const { type, options, operators } = parseFilterArguments(args);
  const existing = config.attributes.get(name);
  if (!existing) {
    if (!type) throw new ResourceConfigurationError(`${owner}: filter "${name}" has no attribute; give it a type`);
    declareAttribute(config, owner, name, type, { only: ['filterable'], allow: options.allow }, undefined, false);
  } else {
    // declaring a filter is asking for one: it re-enables an attribute declared unfilterable
    const filterable = existing.filterable === false ? true : existing.filterable;
    config.attributes.set(name, { ...existing, type: type ?? existing.type, filterable });
  }
  if (options.required) {
    const attribute = config.attributes.get(name)!;
    config.attributes.set(name, { ...attribute, filterable: 'required' });
  }
  const previous = config.filters.get(name);
  config.filters.set(name, {
    name,
    options: { ...previous?.options, ...options },
    operators: { ...previous?.operators, ...operators },
  });
}

/** Splits `sort(name, type?, options?, block?)`'s loose arguments. */
export function declareSort(config: ResourceConfig, owner: string, name: string, args: unknown[]): void {
  bumpRevision();
  const rest = [...args];
  const type = typeof rest[0] === 'string' ? (rest.shift() as string) : undefined;
  const block = rest.find((a): a is SortFunction => typeof a === 'function');
  const options = (rest.find((a) => typeof a === 'object' && a !== null) ?? {}) as SortOptions;
  if (options.only && !(['asc', 'desc'] as SortDirection[]).includes(options.only)) {
    throw new ResourceConfigurationError(`${owner}: sort "${name}" only: must be "asc" or "desc"`);
  }
  const existing = config.attributes.get(name);
  if (!existing) {
    if (!type) throw new ResourceConfigurationError(`${owner}: sort "${name}" has no attribute; give it a type`);
    declareAttribute(config, owner, name, type, { only: ['sortable'] }, undefined, false);
  } else if (existing.sortable === false) {
    config.attributes.set(name, { ...existing, sortable: true });
  }
  config.sorts.set(name, { name, options, block });
}

/** Built-in calculations by name, custom ones as functions keyed by their name. */
export type StatCalculations<S = never, I = never> =
  | ReadonlyArray<BuiltInCalculation | Readonly<Record<string, CalculationFunction<S, I>>>>
  | Readonly<Record<string, CalculationFunction<S, I>>>;

export function declareStat(config: ResourceConfig, owner: string, name: string, calculations: StatCalculations): void {
  const merged = new Map(config.stats.get(name)?.calculations);
  const list = (Array.isArray(calculations) ? calculations : [calculations]) as Exclude<StatCalculations, Readonly<Record<string, unknown>>>;
  for (const entry of list) {
    if (typeof entry === 'string') {
      if (!(BUILT_IN_CALCULATIONS as readonly string[]).includes(entry)) {
        throw new ResourceConfigurationError(
          `${owner}: stat "${name}" has unknown calculation "${entry}"; built in: ${BUILT_IN_CALCULATIONS.join(', ')}, or pass a function`,
        );
      }
      merged.set(entry, entry);
    } else {
      for (const [calc, fn] of Object.entries(entry)) merged.set(calc, fn);
    }
  }
  config.stats.set(name, { name, calculations: merged });
}
