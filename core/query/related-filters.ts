import { InvalidQueryError } from '../errors/index.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import type { RelationshipDefinition } from '../resource/relationship-definition.ts';
import { relatedResource } from '../resource/resolve-resource.ts';
import { variantsOf } from '../resource/polymorphism.ts';
import { dictionary } from '../dictionary.ts';
import { RELATED_FILTER_NAMES } from '../resource/declare.ts';
import { buildFilters } from './build-filters.ts';
import { findRelationship, readableNow } from './include-tree.ts';
import type { FilterCondition } from './query-plan.ts';
import type { QueryParams } from '../query-params.ts';

type ResourceClass = typeof ResourceBase;


/**
 * `filter[has][positions.title]=Manager`: records with at least one related
 * record meeting every condition given on the same relationship path
 * (`filter[has_no]`: with none). Nested paths narrow that same record:
 * `positions.active` and `positions.department.name` both describe one position.
 */
export interface RelatedFilter {
  readonly relationship: RelationshipDefinition;
  readonly negated: boolean;
  /** One per Resource the relationship may lead to: several for a polymorphic belongs_to. */
  readonly targets: readonly RelatedTarget[];
}

export interface RelatedTarget {
  readonly resource: ResourceClass;
  /** A polymorphic belongs_to's group: the type value naming this Resource, and its own foreign key if any. */
  readonly group?: { readonly value: string; readonly foreignKey?: string };
  readonly filters: readonly FilterCondition[];
  readonly nested: readonly RelatedFilter[];
}

interface Entry {
  readonly segments: readonly string[];
  readonly value: unknown;
  readonly parameter: string;
}

/** Takes `has` and `has_no` out of a Resource's filters and validates them against the related Resources. */
export function buildRelatedFilters(resource: ResourceBase, raw: Record<string, unknown>): RelatedFilter[] {
  const result: RelatedFilter[] = [];
  for (const name of RELATED_FILTER_NAMES) {
    if (!Object.prototype.hasOwnProperty.call(raw, name)) continue;
    const entries = entriesOf(resource.resourceClass, name, raw[name]);
    result.push(...groupByRelationship(resource, variantsOf(resource.resourceClass), entries, name === 'has_no'));
  }
  return result;
}

/** Parameters the filter stage must not treat as ordinary filters. */
export function withoutRelatedFilters(raw: Record<string, unknown>): Record<string, unknown> {
  const rest = dictionary<unknown>();
  for (const [key, value] of Object.entries(raw)) if (!RELATED_FILTER_NAMES.includes(key)) rest[key] = value;
  return rest;
}

function entriesOf(resourceClass: ResourceClass, name: string, value: unknown): Entry[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Date) {
    throw new InvalidQueryError('invalid_parameter', `filter[${name}] takes filter[${name}][<relationship>.<filter>]=<value>`, { parameter: `filter[${name}]` });
  }
  return Object.entries(value as Record<string, unknown>).map(([key, v]) => {
    const parameter = `filter[${name}][${key}]`;
    const segments = key.split('.');
    if (segments.length < 2 || segments.some((s) => s === '')) {
      throw new InvalidQueryError('invalid_parameter', `${parameter} names no related filter; use filter[${name}][<relationship>.<filter>]`, { parameter });
    }
    if (segments.length - 1 > resourceClass.maxIncludeDepth) {
      throw new InvalidQueryError('filter_too_deep', `${parameter} is ${segments.length - 1} relationships deep; the maximum is ${resourceClass.maxIncludeDepth}`, { parameter });
    }
    return { segments, value: v, parameter };
  });
}

function groupByRelationship(resource: ResourceBase, resources: readonly ResourceClass[], entries: readonly Entry[], negated: boolean): RelatedFilter[] {
  const byName = new Map<string, Entry[]>();
  for (const entry of entries) {
    const [first, ...rest] = entry.segments as [string, ...string[]];
    byName.set(first, [...(byName.get(first) ?? []), { ...entry, segments: rest }]);
  }
  return [...byName].map(([name, list]) => relatedFilter(resource, resources, name, list, negated));
}

function relatedFilter(resource: ResourceBase, resources: readonly ResourceClass[], name: string, entries: Entry[], negated: boolean): RelatedFilter {
  const relationship = findRelationship(resources, name);
  // an unreadable relationship is answered exactly like one that does not exist, so it cannot be probed
  if (!relationship || !readableNow(resource, relationship)) {
    const parameter = entries[0]!.parameter;
    throw new InvalidQueryError('unknown_filter', `Unknown filter "${parameter.slice(parameter.indexOf('][') + 2, -1)}" on ${resources[0]!.type}; no such relationship`, {
      parameter,
    });
  }
  const targets = relationship.kind === 'polymorphic_belongs_to'
    ? relationship.groups!.map((g) => ({ resource: relatedResource(relationship, g.resource ?? g.value), group: { value: g.value, foreignKey: g.foreignKey } }))
    : [{ resource: relatedResource(relationship) }];
  return { relationship, negated, targets: targets.map((t) => ({ ...t, ...conditionsOn(relationship, new t.resource(), entries) })) };
}

function conditionsOn(relationship: RelationshipDefinition, related: ResourceBase, entries: readonly Entry[]): Pick<RelatedTarget, 'filters' | 'nested'> {
  const raw = dictionary<unknown>();
  const parameters = new Map<string, string>();
  for (const entry of entries) {
    if (entry.segments.length !== 1) continue;
    raw[entry.segments[0]!] = entry.value;
    parameters.set(entry.segments[0]!, entry.parameter);
  }
  const filters = [...blockFilters(relationship, related), ...buildFilters(related, raw, { enforceRequired: false, parameters, readableOnly: true })];
  const deeper = entries.filter((e) => e.segments.length > 1);
  return { filters, nested: groupByRelationship(related, [related.resourceClass], deeper, false) };
}

/**
 * The filters a relationship's `params` block adds (a has_one `current_position`
 * filtering `active: true`), so that `filter[has]` and related sorts read the
 * same records `include` loads. The block runs without parents: conditions
 * that depend on them cannot apply to a query over every parent.
 */
export function blockFilters(relationship: RelationshipDefinition, related: ResourceBase): FilterCondition[] {
  if (!relationship.params) return [];
  const params = { filter: dictionary(), sort: [], page: dictionary(), stats: dictionary() } as QueryParams;
  relationship.params(params, [] as never[], related as never);
  const filter = (params.filter ?? {}) as Record<string, unknown>;
  return buildFilters(related, withoutRelatedFilters(filter), { enforceRequired: false });
}
