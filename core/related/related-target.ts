import { assignEntries, dictionary } from '../dictionary.ts';
import { InvalidQueryError } from '../errors/index.ts';
import { listOf, type QueryParams } from '../query-params.ts';
import { foreignKeyOf } from '../relationships/relationship-keys.ts';
import { TO_MANY, type RelationshipDefinition } from '../resource/relationship-definition.ts';
import { relatedResource } from '../resource/resolve-resource.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { IncludeGraph, type LoadedRecord } from '../sideload/include-graph.ts';
import { linkStrategy, type LinkStrategy } from '../sideload/relationship-links.ts';
import { assignChildren } from '../sideload/sideload.ts';

type ResourceClass = typeof ResourceBase;

/**
 * One relationship of one loaded record, as its related endpoint queries it:
 * the related Resource's base scope narrowed exactly as `include` narrows it
 * for that parent (same keys, join table or type column), and the client's
 * query after the relationship's `params` block.
 */
export interface RelatedTarget {
  readonly relationship: RelationshipDefinition;
  readonly parent: LoadedRecord;
  /** The Resource of the related records (for a polymorphic belongs_to, the record's group's). */
  readonly resource: ResourceClass;
  /** Undefined when nothing can be related: a null key, or a polymorphic type no group declares. */
  readonly baseScope?: unknown;
  readonly params: QueryParams;
  /** A single resource or null rather than a list: belongs_to, has_one, polymorphic belongs_to. */
  readonly toOne: boolean;
  /**
   * For a relationship with an `assign` or `assignEach` block: the parent's
   * records among those the query found, as that block hands them out.
   */
  readonly pick?: (records: LoadedRecord[]) => LoadedRecord[];
}

/** Builds the target; `params` is the client's query (validated later, against the related Resource). */
export function relatedTarget(relationship: RelationshipDefinition, parent: LoadedRecord, params: QueryParams): RelatedTarget {
  const toOne = !TO_MANY.has(relationship.kind);
  const picks = relationship.assign !== undefined || relationship.assignEach !== undefined;
  refusePages(relationship, params, toOne ? 'is a to-one relationship: its related endpoint answers one resource or null' : picks ? 'is assigned by its own block, after the query' : undefined);
  const group = relationship.kind === 'polymorphic_belongs_to' ? groupOf(relationship, parent.record) : undefined;
  const resource = group ? relatedResource(relationship, group.resource ?? group.value) : firstTarget(relationship);
  const query = blockParams(relationship, parent, resource, params);
  const base = { relationship, parent, resource, params: query, toOne };
  if (relationship.kind === 'polymorphic_belongs_to' && !group) return base;
  const strategy = linkStrategy(relationship, parent.resource, [parent.record], resource, group?.foreignKey ?? foreignKeyOf(relationship), false);
  if (strategy.keys.length === 0) return base;
  const instance = new resource();
  const baseScope = strategy.link(instance.baseScope(), instance.adapter);
  return picks ? { ...base, baseScope, pick: picker(relationship, parent, instance, strategy) } : { ...base, baseScope };
}

/**
 * The client's query as the `params` block sees it under `include`: its own
 * copies of filter, sort (a list), page and stats, which it may edit.
 */
function blockParams(relationship: RelationshipDefinition, parent: LoadedRecord, resource: ResourceClass, params: QueryParams): QueryParams {
  if (!relationship.params) return params;
  const copy = (value: unknown) => (typeof value === 'object' && value !== null && !Array.isArray(value) ? assignEntries(dictionary(), value) : value);
  const edited = {
    ...params,
    filter: copy(params.filter ?? {}),
    sort: listOf(params.sort, 'sort'),
    page: copy(params.page ?? {}),
    stats: copy(params.stats ?? {}),
  } as QueryParams;
  relationship.params(edited, [parent.record] as never[], new resource() as never);
  return edited;
}

/** `page[size]`, `page[number]`, `page[after]` and `page[before]` only page a to-many relationship whose records the query alone selects. */
function refusePages(relationship: RelationshipDefinition, params: QueryParams, reason: string | undefined): void {
  if (reason === undefined || typeof params.page !== 'object' || params.page === null) return;
  for (const key of ['size', 'number', 'after', 'before']) {
    if (params.page[key] !== undefined) {
      throw new InvalidQueryError('invalid_page', `${relationship.name} ${reason}, so page[${key}] does not apply`, { parameter: `page[${key}]` });
    }
  }
}

function groupOf(relationship: RelationshipDefinition, record: object) {
  const value = (record as Record<string, unknown>)[relationship.groupBy!];
  return relationship.groups!.find((g) => g.value === String(value));
}

/** The related Resource; for a polymorphic belongs_to whose record names no group, the first group's, to read the query against. */
function firstTarget(relationship: RelationshipDefinition): ResourceClass {
  if (relationship.kind !== 'polymorphic_belongs_to') return relatedResource(relationship);
  const first = relationship.groups![0]!;
  return relatedResource(relationship, first.resource ?? first.value);
}

function picker(relationship: RelationshipDefinition, parent: LoadedRecord, resource: ResourceBase, strategy: LinkStrategy) {
  return (records: LoadedRecord[]): LoadedRecord[] => {
    const graph = new IncludeGraph();
    assignChildren(relationship, [parent], records, strategy, resource, graph, relationship.name);
    const assigned = graph.relatedTo(parent.record, relationship.name);
    return assigned === null || assigned === undefined ? [] : [assigned].flat();
  };
}
