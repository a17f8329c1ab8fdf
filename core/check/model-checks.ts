import type { ModelDescription } from '../adapter/adapter.ts';
import { MuralError } from '../errors/index.ts';
import { resolveFilters, type ResolvedFilter } from '../query/resolved-filter.ts';
import type { AttributeDefinition } from '../resource/attribute.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { hint, type ProblemList } from './problem-list.ts';

type ResourceClass = typeof ResourceBase;

/** A Resource under check, with what its adapter says of its model. */
export interface CheckedResource {
  readonly resource: ResourceClass;
  /** Undefined when there is no model, or the adapter cannot describe it: then its members are not checked against it. */
  readonly model?: ModelDescription;
}

/**
 * A Resource's model, as its adapter describes it. Reports a Resource that
 * has no model (unless it builds its own base scope) or no adapter: each
 * fails every request it gets.
 */
export function describeResource(resource: ResourceClass, problems: ProblemList): CheckedResource {
  const { model } = resource;
  if (model === undefined) {
    if (!overridesBaseScope(resource)) {
      problems.add({ resource, member: 'model', sites: ['model'] }, 'not set; set this.model to the model it serves, or override baseScope()');
    }
    return { resource };
  }
  if (!resource.adapter) {
    problems.add({ resource, member: 'adapter', sites: ['adapter', 'model'] }, 'not set; set this.adapter (SequelizeAdapter, say) here or on a base class it extends');
    return { resource };
  }
  try {
    return { resource, model: resource.adapterInstance().describeModel?.(model) };
  } catch (error) {
    problems.add({ resource, member: 'adapter', sites: ['adapter'] }, `could not be created for its model: ${(error as Error).message}`);
    return { resource };
  }
}

/** Compared with the root of its own class chain: a Resource of another copy of Mural inherits that copy's baseScope. */
function overridesBaseScope(resource: ResourceClass): boolean {
  let root: object = resource;
  while (Object.getPrototypeOf(root) !== Function.prototype) root = Object.getPrototypeOf(root) as object;
  return resource.prototype.baseScope !== (root as ResourceClass).prototype.baseScope;
}

/** Whether the adapter reads and writes the attribute as a property of the records (no block computes it). */
const isValue = (attribute: AttributeDefinition) => attribute.readable !== false || attribute.writable !== false;

/**
 * Every attribute is on the model (a column, a getter, a virtual attribute),
 * computed by a block, or declared `virtual: true`; and filters, sorts and
 * stats the adapter runs in the database name a column.
 */
export function checkMembers({ resource, model }: CheckedResource, problems: ProblemList): void {
  const filters = resolvedFilters(resource, problems);
  if (!model) return;
  const columns = new Set(model.columns);
  const known = [...model.columns, ...model.properties];
  for (const attribute of resource.config.attributes.values()) {
    if (columns.has(attribute.name)) continue;
    const subject = { resource, member: attribute.name, sites: [`attribute:${attribute.name}`, `filter:${attribute.name}`, `sort:${attribute.name}`], declaration: attribute };
    if (isValue(attribute) && !attribute.block && !attribute.virtual && !model.properties.includes(attribute.name)) {
      problems.add(subject, `not a column of model ${model.name}${hint(attribute.name, known, fixFor(attribute))}`);
      continue;
    }
    const modelProperty = model.properties.includes(attribute.name);
    const implicit = implicitDatabaseUses(resource, attribute, modelProperty);
    if (implicit.length > 0) {
      problems.add(subject, `${implicit.join(' and ')} ${implicit.length > 1 ? 'need' : 'needs'} a column, and model ${model.name} has none by that name (${attribute.name} is the model's getter or VIRTUAL attribute); declare it { virtual: true }, which is then neither filtered nor sorted unless asked, or give it a filter or sort of its own`);
      continue;
    }
    for (const use of databaseUses(resource, attribute, filters, modelProperty)) {
      problems.add(subject, `${use.what} needs a column, and model ${model.name} has none by that name${hint(attribute.name, model.columns, use.fix)}`);
    }
  }
  checkStats({ resource, model }, columns, problems);
}

function fixFor(attribute: AttributeDefinition): string | undefined {
  return isValue(attribute) ? 'compute it with a block, or declare it { virtual: true } if its records carry it another way' : undefined;
}

interface DatabaseUse {
  /** `filter[name]`, `filter[name][not_eq]`, `sort=name`. */
  readonly what: string;
  readonly fix: string;
}

/**
 * What of an attribute that is not a column would run in the database: a
 * declared filter's built-in operators, a declared sort without a block, or
 * either on a filter- or sort-only attribute, on a computed one (a block or
 * `virtual: true`, filterable or sortable only when asked to be), or on one
 * the model supplies (a getter, a VIRTUAL attribute), which the declaration
 * cannot tell from a column: it must say so, or the first `filter[name]`
 * would be a database error.
 */
function databaseUses(resource: ResourceClass, attribute: AttributeDefinition, filters: ReadonlyMap<string, ResolvedFilter>, modelProperty: boolean): DatabaseUse[] {
  const { config } = resource;
  const { name } = attribute;
  const uses: DatabaseUse[] = [];
  const computed = attribute.block !== undefined || attribute.virtual === true || modelProperty;
  if (attribute.filterable !== false && (config.filters.has(name) || !isValue(attribute) || computed)) {
    const operators = filterOperators(filters.get(name));
    if (operators.builtIn.length > 0 && operators.custom.length === 0) {
      uses.push({ what: `filter[${name}]`, fix: 'give the filter operators of its own ({ eq: (scope, value) => … })' });
    } else if (operators.builtIn.length > 0) {
      const only = operators.custom.map((op) => `'${op}'`).join(', ');
      uses.push({ what: `filter[${name}][${operators.builtIn.join('|')}]`, fix: `give each a function of its own, or keep the filter to only: [${only}]` });
    }
  }
  const sort = config.sorts.get(name);
  if (attribute.sortable !== false && (sort !== undefined || !isValue(attribute) || computed) && !sort?.block) {
    uses.push({ what: `sort=${name}`, fix: 'give the sort a block ((scope, direction) => …)' });
  }
  return uses;
}

/**
 * A getter or VIRTUAL attribute of the model, left filterable or sortable by
 * default (no filter or sort declared for it): the declaration cannot tell it
 * from a column, so the first `filter[name]` or `sort=name` would reach the
 * database and fail there.
 */
function implicitDatabaseUses(resource: ResourceClass, attribute: AttributeDefinition, modelProperty: boolean): string[] {
  if (!modelProperty || attribute.virtual || attribute.block) return [];
  const { config } = resource;
  const uses: string[] = [];
  if (attribute.filterable !== false && !config.filters.has(attribute.name)) uses.push(`filter[${attribute.name}]`);
  if (attribute.sortable !== false && !config.sorts.has(attribute.name)) uses.push(`sort=${attribute.name}`);
  return uses;
}

/** Those of a filter's operators the adapter applies to the column itself, and the filter's own. */
function filterOperators(filter: ResolvedFilter | undefined): { builtIn: string[]; custom: string[] } {
  const builtIn: string[] = [];
  const custom: string[] = [];
  for (const [operator, implementation] of filter?.operators ?? []) (implementation.kind === 'built-in' ? builtIn : custom).push(operator);
  return { builtIn, custom };
}

/** The Resource's filters as the first request would resolve them; a value its allow: or deny: list cannot hold fails here instead. */
function resolvedFilters(resource: ResourceClass, problems: ProblemList): ReadonlyMap<string, ResolvedFilter> {
  try {
    return resolveFilters(resource.config);
  } catch (error) {
    const name = error instanceof MuralError ? /^filter\[(.+)\]$/.exec(error.parameter ?? '')?.[1] : undefined;
    const message = name ? `a value of filter[${name}]'s allow: or deny: list fails its type: ${(error as Error).message}` : (error as Error).message;
    const declaration = name === undefined ? undefined : resource.config.filters.get(name);
    problems.add({ resource, member: name ?? 'filters', sites: name ? [`filter:${name}`, `attribute:${name}`] : [], declaration }, message);
    return new Map();
  }
}

/** Built-in calculations but `count` aggregate a column of that name. */
function checkStats({ resource, model }: Required<CheckedResource>, columns: ReadonlySet<string>, problems: ProblemList): void {
  for (const stat of resource.config.stats.values()) {
    if (columns.has(stat.name) || resource.config.attributes.get(stat.name)?.virtual) continue;
    const aggregates = [...stat.calculations].filter(([, calc]) => typeof calc === 'string' && calc !== 'count').map(([name]) => name);
    if (aggregates.length === 0) continue;
    problems.add(
      { resource, member: stat.name, sites: [`stat:${stat.name}`], declaration: stat },
      `stat ${aggregates.join(', ')} needs a column, and model ${model.name} has none by that name${hint(stat.name, model.columns, 'give the stat calculations of its own ({ median: (scope, name) => … })')}`,
    );
  }
}
