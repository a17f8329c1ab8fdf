import { prepareResources } from '../relationships/prepare.ts';
import { resolveFilters } from '../query/resolved-filter.ts';
import { targetResources } from '../query/include-tree.ts';
import type { RelationshipDefinition } from '../resource/relationship-definition.ts';
import { relatedResource } from '../resource/resolve-resource.ts';
import type { Guard } from '../resource/guard.ts';
import { polymorphicParentOf, variantsOf } from '../resource/polymorphism.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { guardedActions } from '../resource/resource-guard.ts';
import { describeRule } from '../rules/describe-rule.ts';
import { ruledActions } from '../rules/rule-bound.ts';
import { rulesOf } from '../resource/row-rule.ts';
import { Types } from '../types/index.ts';
import type { FlagValue, ResourceSchema, Schema } from './schema-types.ts';
import { supportsCursors } from '../resource/cursor-support.ts';
import { versionAttributeOf } from '../conditional/version.ts';

type ResourceClass = typeof ResourceBase;

/**
 * The schema of a set of Resources, in the layout users of this framework
 * family diff in CI. Key order is fixed and lists are sorted, so the same
 * Resources always give byte-identical output.
 */
export function buildSchema(resources: readonly ResourceClass[]): Schema {
  // what relationships imply on the other side (inverse filters) is served, so it is described too
  prepareResources();
  const concrete = [...new Set(resources.flatMap(variantsOf))].filter((r) => !r.abstractClass).sort(byName);
  const endpoints: Schema['endpoints'] = {};
  for (const resource of concrete) {
    for (const endpoint of resource.endpoints) {
      const entry = (endpoints[endpoint.path] ??= { actions: {} });
      for (const action of endpoint.actions) entry.actions[action] ??= { resource: resource.name };
    }
  }
  const types: Schema['types'] = {};
  for (const name of Object.keys(Types).sort()) types[name] = { kind: Types[name]!.kind, description: Types[name]!.description };
  return { resources: concrete.map(resourceSchema), endpoints: sortKeys(endpoints), types };
}

/** One Resource's entry of the schema; the OpenAPI description reads the same. */
export function resourceSchema(resource: ResourceClass): ResourceSchema {
  const { config } = resource;
  const attributes: ResourceSchema['attributes'] = {};
  const extra: ResourceSchema['extra_attributes'] = {};
  const sorts: ResourceSchema['sorts'] = {};
  for (const attribute of config.attributes.values()) {
    if (!attribute.schema) continue;
    const description = attribute.description ?? null;
    if (attribute.extra) {
      extra[attribute.name] = { type: attribute.type, readable: flag(attribute.readable), description };
      continue;
    }
    if (attribute.readable !== false || attribute.writable !== false) {
      attributes[attribute.name] = { type: attribute.type, readable: flag(attribute.readable), writable: flag(attribute.writable), description };
    }
    if (attribute.sortable !== false) {
      const only = config.sorts.get(attribute.name)?.options.only;
      sorts[attribute.name] = { ...(only ? { only } : {}), ...(flag(attribute.sortable) === 'guarded' ? { guard: true as const } : {}) };
    }
  }
  return {
    name: resource.name,
    type: resource.type,
    description: resource.description ?? null,
    attributes,
    extra_attributes: extra,
    sorts,
    filters: filterSchemas(resource),
    relationships: Object.fromEntries([...config.relationships.values()].map((r) => [r.name, relationshipSchema(r)])),
    related_filters: [...config.relationships.keys()],
    related_sorts: [...config.relationships.values()].filter((r) => r.kind === 'belongs_to' || r.kind === 'has_one').map((r) => r.name),
    stats: Object.fromEntries([...config.stats.values()].map((s) => [s.name, [...s.calculations.keys()]])),
    default_sort: resource.defaultSort ?? null,
    default_page_size: resource.defaultPageSize,
    cursor_pagination: supportsCursors(resource),
    version_attribute: versionAttributeOf(resource) ?? null,
    ...(resource.cacheControl === undefined ? {} : { cache_control: resource.cacheControl }),
    ...(resource.clientGeneratedIds === true ? { client_generated_ids: true as const } : {}),
    polymorphic: (resource.polymorphic?.length ?? 0) > 0,
    children: variantsOf(resource).slice(1).map((c) => c.name),
    ...(guardedActions(resource).length > 0 ? { guard: guardedActions(resource) } : {}),
    ...(config.rules.length > 0 ? { rules: ruleSchema(resource) } : {}),
    ...(config.softDelete ? { soft_delete: config.softDelete.column } : {}),
  };
}

function filterSchemas(resource: ResourceClass): ResourceSchema['filters'] {
  const result: ResourceSchema['filters'] = {};
  for (const filter of resolveFilters(resource.config).values()) {
    if (!filter.attribute.schema) continue;
    result[filter.name] = {
      type: filter.typeName,
      operators: [...filter.operators.keys()],
      ...(filter.single ? { single: true as const } : {}),
      ...(filter.allow ? { allow: filter.allow.map(plain) } : {}),
      ...(filter.deny ? { deny: filter.deny.map(plain) } : {}),
      ...(filter.dependent.length > 0 ? { dependencies: [...filter.dependent] } : {}),
      ...(filter.required ? { required: true as const } : {}),
      ...(flag(filter.guard) === 'guarded' ? { guard: true as const } : {}),
    };
  }
  return result;
}

function relationshipSchema(relationship: RelationshipDefinition): ResourceSchema['relationships'][string] {
  const guarded = flag(relationship.readable) === 'guarded' || flag(relationship.writable) === 'guarded';
  const base = { type: relationship.kind };
  let target: Partial<ResourceSchema['relationships'][string]>;
  try {
    if (relationship.kind === 'polymorphic_belongs_to') {
      target = { resources: targetResources(relationship).map((r) => r.name).sort() };
    } else {
      const related = relatedResource(relationship);
      const parent = polymorphicParentOf(related);
      target = { resource: related.name, ...(parent ? { parent_resource: parent.name } : {}) };
    }
  } catch {
    target = { resource: String(relationship.resource ?? relationship.name) };
  }
  return { ...base, ...target, ...(relationship.single ? { single: true as const } : {}), ...(guarded ? { guard: true as const } : {}) };
}

function flag(value: Guard | 'required'): FlagValue {
  if (value === 'required') return true;
  return typeof value === 'boolean' ? value : 'guarded';
}

function plain(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}

function byName(a: ResourceClass, b: ResourceClass): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Each action's rules, in declaration order, as lines of text. */
function ruleSchema(resource: ResourceClass): Record<string, string[]> {
  const rules: Record<string, string[]> = {};
  for (const action of ruledActions(resource)) rules[action] = rulesOf(resource, action).map((definition) => describeRule(definition.rule));
  return rules;
}
