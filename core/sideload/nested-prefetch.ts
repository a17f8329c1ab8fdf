import type { RelatedCondition } from '../adapter/adapter.ts';
import { muralConfig } from '../config.ts';
import { buildNodeQuery } from '../query/build-query.ts';
import type { IncludeNode } from '../query/include-tree.ts';
import type { QueryPlan } from '../query/query-plan.ts';
import type { QueryParams } from '../query-params.ts';
import { loadRecords, scopeRecords } from '../read/load-records.ts';
import { foreignKeyOf } from '../relationships/relationship-keys.ts';
import type { RelationshipDefinition } from '../resource/relationship-definition.ts';
import { relatedResource } from '../resource/resolve-resource.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import type { IncludeGraph } from './include-graph.ts';

type ResourceClass = typeof ResourceBase;

/**
 * Nested to-one sideloads in the same round trip as their parents.
 *
 * `include=positions.department` waits for the positions to learn which
 * departments to read: one more round trip to the database, on a database
 * across a network the largest part of a lone request's time. A prefetch
 * reads the departments beside the positions instead, naming them through
 * the positions' query as a subquery
 * (`departments.id IN (SELECT department_id FROM positions WHERE …)`).
 *
 * The two statements may see different rows (a write between them), and a
 * parent's key may name a record out of scope or gone. So a prefetch is
 * only used when it holds every key the loaded parents name, narrowed to
 * those keys; otherwise the usual query runs, and the answer is the one it
 * would have been.
 *
 * It costs the database the parents' conditions a second time, and a
 * statement more at once: where the database shares the machine's cores
 * and answers in a fraction of a millisecond, that costs more than the
 * round trip it saves. So, with `nestedPrefetch: 'auto'`, it starts only
 * where the parents' statements have been taking PREFETCH_AFTER_MS or more
 * (a network between), while reads run side by side (a pool, no
 * transaction), and while few requests are sideloading in this process.
 */

/** Requests sideloading at once in this process, up to which prefetches start. */
export const PREFETCH_WHILE_SIDELOADING = 2;

/** `auto`: how long, in milliseconds, the parents' statements must have been taking for a prefetch to pay. */
export const PREFETCH_AFTER_MS = 0.75;

/** `auto`, prefetching: one load of the parents in this many goes without, to time them unslowed. */
export const PROBE_EVERY = 16;

/** Misses in a row after which a relationship's prefetches pause, and for how many of their chances. */
export const PAUSE_AFTER_MISSES = 3;
export const PAUSE_FOR = 64;

/**
 * How far a slower load raises a relationship's floor of its parents' load
 * time, as a fraction of the difference (a faster one lowers it at once):
 * the floor is the round trip and the statement, without the moments the
 * machine was busy.
 */
const FLOOR_RISE = 0.05;

export interface Prefetch {
  readonly relationship: RelationshipDefinition;
  readonly related: ResourceClass;
  /** Undefined when the prefetch failed: the usual query then runs, and reports whatever is wrong. */
  readonly records: Promise<unknown[] | undefined>;
}

interface TrackRecord {
  missesInARow: number;
  skipped: number;
  /** `auto`: prefetching loads since the last one timed without. */
  sinceProbe: number;
  /** The floor of the milliseconds the relationship's parents take to load (see FLOOR_RISE); undefined before the first. */
  parentsMs?: number;
}

// per request: the include nodes are shared by every request of the same shape
const prefetches = new WeakMap<IncludeGraph, Map<IncludeNode, Prefetch | undefined>>();
const trackRecords = new WeakMap<RelationshipDefinition, TrackRecord>();
let sideloading = 0;

/** Runs one request's sideload stage, counted: prefetches start only while few run. */
export async function countSideloading<T>(run: () => Promise<T>): Promise<T> {
  sideloading++;
  try {
    return await run();
  } finally {
    sideloading--;
  }
}

/**
 * Starts, for each child of `node` that a prefetch can serve, its query
 * beside the node's own, `loading`: `scope` is the node's filtered scope,
 * read as a subquery; `plan`, the node's query plan.
 */
export function prefetchChildren(node: IncludeNode, resource: ResourceBase, plan: QueryPlan, scope: unknown, loading: Promise<unknown>, graph: IncludeGraph): void {
  const mode = muralConfig.nestedPrefetch;
  if (mode === 'never' || sideloading > PREFETCH_WHILE_SIDELOADING) return;
  const startedAt = performance.now();
  let started = prefetches.get(graph);
  for (const child of node.children) {
    if (started?.has(child)) {
      // a second load of the same node (polymorphic parents): neither prefetch knows all the parents
      started.set(child, undefined);
      continue;
    }
    const relationship = resource.resourceClass.config.relationships.get(child.name);
    if (!relationship || !prefetchable(relationship)) continue;
    const track = trackRecordOf(relationship);
    if (mode === 'auto' && !prefetchPays(track)) {
      loading.then(() => timeParents(track, performance.now() - startedAt), () => undefined);
      continue;
    }
    if (!worthTrying(track)) continue;
    const prefetch = startPrefetch(relationship, child, plan, scope, graph);
    if (!prefetch) continue;
    if (!started) prefetches.set(graph, (started = new Map()));
    started.set(child, prefetch);
  }
}

/** The prefetch started for `node` in this request, taken so nothing else uses it; undefined when none was. */
export function takePrefetch(graph: IncludeGraph, node: IncludeNode): Prefetch | undefined {
  const started = prefetches.get(graph);
  const prefetch = started?.get(node);
  if (prefetch) started!.delete(node);
  return prefetch;
}

/**
 * A prefetch's records for the parents' `keys`, in the order the usual
 * query would return them; undefined when it was started for another
 * relationship, failed, or lacks one of the keys: load them the usual way.
 */
export async function prefetchedRecords(prefetch: Prefetch, relationship: RelationshipDefinition, related: ResourceClass, keys: readonly unknown[]): Promise<unknown[] | undefined> {
  if (prefetch.relationship !== relationship || prefetch.related !== related) return undefined;
  const records = await prefetch.records;
  if (!records) return undefined;
  const wanted = new Set(keys.map(String));
  const found = new Set<string>();
  const kept = records.filter((record) => {
    const key = String((record as Record<string, unknown>)[relationship.primaryKey]);
    if (!wanted.has(key)) return false;
    found.add(key);
    return true;
  });
  const complete = found.size === wanted.size;
  keepScore(relationship, complete);
  return complete ? kept : undefined;
}

/** A plain to-one: no block that sees the parents, whose result a subquery could not predict. */
function prefetchable(relationship: RelationshipDefinition): boolean {
  return relationship.kind === 'belongs_to' && !relationship.params && !relationship.assign && !relationship.assignEach;
}

function startPrefetch(relationship: RelationshipDefinition, node: IncludeNode, parentPlan: QueryPlan, parentScope: unknown, graph: IncludeGraph): Prefetch | undefined {
  let related: ResourceClass;
  let resource: ResourceBase;
  let plan: QueryPlan;
  try {
    related = relatedResource(relationship);
    resource = new related();
    const { adapter } = resource;
    if (!adapter.filterRelated || !adapter.concurrentReads?.() || !adapter.nestsScope?.(resource.baseScope(), parentScope)) return undefined;
    plan = buildNodeQuery(resource, parentPlan, node, nodeQueryParams(parentPlan, node));
  } catch {
    // the usual load, after the parents, meets the same problem and reports it where it always has
    return undefined;
  }
  // deep filters leave keys out by design: the prefetch would always miss; stats would count the wrong records
  if (plan.filters.length > 0 || (plan.related?.length ?? 0) > 0 || plan.stats.length > 0 || plan.perParentLimit !== undefined) return undefined;
  const budget = graph.recordBudget();
  const limited = budget === undefined ? plan : { ...plan, page: { size: budget, number: 1 } };
  const condition: RelatedCondition = {
    negated: false,
    links: [{ parentKey: relationship.primaryKey, relatedKey: foreignKeyOf(relationship), scope: parentScope }],
  };
  const records = graph.limiter
    .run(() => loadRecords(resource, limited, { link: (scope) => resource.adapter.filterRelated!(scope, condition) }))
    .then((loaded) => loaded.records, () => undefined);
  return { relationship, related, records };
}

/** The query parameters of an include node, as the client gave them: its filters, sorts, page size and stats. */
export function nodeQueryParams(plan: QueryPlan, node: IncludeNode): QueryParams {
  const nodeParams = plan.nodeParams.get(node)!;
  return {
    filter: { ...nodeParams.filter },
    sort: [...nodeParams.sort],
    page: nodeParams.pageSize === undefined ? {} : { size: nodeParams.pageSize },
    stats: { ...nodeParams.stats },
  } as QueryParams;
}

function trackRecordOf(relationship: RelationshipDefinition): TrackRecord {
  let track = trackRecords.get(relationship);
  if (!track) trackRecords.set(relationship, (track = { missesInARow: 0, skipped: 0, sinceProbe: 0 }));
  return track;
}

/**
 * `auto`: whether this load of the relationship's parents starts a
 * prefetch. The loads that do not are timed: a prefetch slows its parents
 * down where the database shares the machine's cores, so loads timed beside
 * one could keep prefetching on where it does not pay; one load in
 * PROBE_EVERY goes without, to time them again.
 */
function prefetchPays(track: TrackRecord): boolean {
  if (!(track.parentsMs! >= PREFETCH_AFTER_MS)) return false;
  if (++track.sinceProbe < PROBE_EVERY) return true;
  track.sinceProbe = 0;
  return false;
}

function timeParents(track: TrackRecord, ms: number): void {
  const floor = track.parentsMs;
  track.parentsMs = floor === undefined || ms < floor ? ms : floor + (ms - floor) * FLOOR_RISE;
}

/** A relationship whose prefetches keep missing (records out of scope, dangling keys) pauses them, then tries again. */
function worthTrying(track: TrackRecord): boolean {
  if (track.missesInARow < PAUSE_AFTER_MISSES) return true;
  if (++track.skipped < PAUSE_FOR) return false;
  track.skipped = 0;
  track.missesInARow = PAUSE_AFTER_MISSES - 1;
  return true;
}

function keepScore(relationship: RelationshipDefinition, hit: boolean): void {
  const track = trackRecordOf(relationship);
  track.missesInARow = hit ? 0 : track.missesInARow + 1;
}
