import type { BuiltInOperator } from '../adapter/adapter.ts';
import type { AttributeDefinition } from '../resource/attribute.ts';
import type { OperatorFunction } from '../resource/filter-definition.ts';
import type { Guard } from '../resource/guard.ts';
import type { ResourceConfig } from '../resource/resource-config.ts';
import { lookupType, type TypeDefinition } from '../types/index.ts';
import { configurationCache } from '../resource/revision.ts';
import { builtInOperator, defaultOperators, filterValueType, isTextType } from './default-operators.ts';
import { coerceFilterValues } from './filter-values.ts';

export type OperatorImplementation =
  | { kind: 'built-in'; operator: BuiltInOperator; negated: boolean }
  | { kind: 'custom'; fn: OperatorFunction };

/** Everything the query stage needs to know about one usable filter. */
export interface ResolvedFilter {
  readonly name: string;
  readonly attribute: AttributeDefinition;
  readonly typeName: string;
  /** The coercion applied to each value. */
  readonly valueType: TypeDefinition;
  readonly operators: ReadonlyMap<string, OperatorImplementation>;
  readonly single: boolean;
  readonly allowNil: boolean;
  readonly allow?: readonly unknown[];
  readonly deny?: readonly unknown[];
  readonly required: boolean;
  readonly dependent: readonly string[];
  /** Whether the filter may be used; the attribute's `filterable` flag or the filter's own guard. */
  readonly guard: Guard;
  readonly caseInsensitiveEq: boolean;
}

const resolved = configurationCache<ResourceConfig, Map<string, ResolvedFilter>>();

/** The filters a Resource accepts, derived from its attributes and filter declarations; cached until the next declaration. */
export function resolveFilters(config: ResourceConfig): Map<string, ResolvedFilter> {
  return resolved(config, undefined, () => computeFilters(config));
}

function computeFilters(config: ResourceConfig): Map<string, ResolvedFilter> {
  const result = new Map<string, ResolvedFilter>();
  for (const attribute of config.attributes.values()) {
    if (attribute.filterable === false) continue;
    result.set(attribute.name, resolveFilter(config, attribute));
  }
  return result;
}

function resolveFilter(config: ResourceConfig, attribute: AttributeDefinition): ResolvedFilter {
  const declaration = config.filters.get(attribute.name);
  const options = declaration?.options ?? {};
  const typeName = attribute.type;
  let names = defaultOperators(typeName);
  if (options.only) names = names.filter((n) => (options.only as readonly string[]).includes(n));
  if (options.except) names = names.filter((n) => !(options.except as readonly string[]).includes(n));
  const operators = new Map<string, OperatorImplementation>();
  for (const name of names) operators.set(name, { kind: 'built-in', ...builtInOperator(name)! });
  for (const [name, fn] of Object.entries(declaration?.operators ?? {})) operators.set(name, { kind: 'custom', fn });
  const valueType = lookupType(filterValueType(typeName));
  const coerceList = (list: readonly unknown[] | undefined) =>
    list ? coerceFilterValues(list, valueType, `filter[${attribute.name}]`) : undefined;
  const guard = options.guard ?? (attribute.filterable === 'required' ? true : attribute.filterable);
  return {
    name: attribute.name,
    attribute,
    typeName,
    valueType,
    operators,
    single: options.single ?? filterValueType(typeName) === 'boolean',
    allowNil: options.allowNil ?? config.settings.filtersAcceptNilByDefault,
    allow: coerceList(options.allow ?? attribute.allow),
    deny: coerceList(options.deny ?? options.reject),
    required: attribute.filterable === 'required' || options.required === true,
    dependent: options.dependent ?? [],
    guard,
    caseInsensitiveEq: isTextType(typeName),
  };
}
