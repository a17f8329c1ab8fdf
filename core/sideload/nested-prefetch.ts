import type { RelatedCondition } from '../adapter/adapter.ts';
import { muralConfig } from '../config.ts';
import { choosePrefetch, scorePrefetch, timeLoad } from './prefetch-choice.ts';
import type { NodeParams } from '../query/deep-params.ts';
import { plannedNodeQuery } from '../query/plan-cache.ts';
import type { IncludeNode } from '../query/include-tree.ts';
import type { QueryPlan } from '../query/query-plan.ts';
import { loadRecords, scopeRecords } from '../read/load-records.ts';
import { foreignKeyOf } from '../relationships/relationship-keys.ts';
import type { RelationshipDefinition } from '../resource/relationship-definition.ts';
import { relatedResource } from '../resource/resolve-resource.ts';
import { ruledScope } from '../rules/rule-scope.ts';
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
 * would have been. Only where reads run side by side (a pool, no
 * transaction); with `nestedPrefetch: 'auto'`, only where it has been
 * faster (prefetch-choice.ts).
 */

export interface Prefetch {
  readonly related: ResourceClass;
  /** Undefined when the prefetch failed: the usual query then runs, and reports whatever is wrong. */
  readonly records: Promise<unknown[] | undefined>;
}

/** A nested node whose parents are loading, and its prefetch, if one was started. */
export interface PendingNode {
  readonly relationship: RelationshipDefinition;
  readonly prefetch?: Prefetch;
}

// per request (the include nodes are shared by every request of the same shape): undefined where two loads of a node both had parents of the child
const requests = new WeakMap<IncludeGraph, Map<IncludeNode, PendingNode | undefined>>();

/**
 * For each child of `node` that a prefetch could serve, as the node's own
 * query starts: starts the child's query beside it, or (`auto`) notes the
 * time, to compare. `scope` is the node's filtered scope, read as a
 * subquery; `plan`, the node's query plan.
 */
export function prefetchChildren(node: IncludeNode, resource: ResourceBase, plan: QueryPlan, scope: unknown, graph: IncludeGraph): void {
  const mode = muralConfig.nestedPrefetch;
  // one connection (SQLite) or a transaction: no statement runs beside another, nothing to choose
  if (mode === 'never' || !resource.adapter.concurrentReads?.()) return;
  let request = requests.get(graph);
  for (const child of node.children) {
    const relationship = resource.resourceClass.config.relationships.get(child.name);
    // records of a type that does not declare the child are not its parents (polymorphic ones may differ)
    if (!relationship) continue;
    if (request?.has(child)) {
      // a second load of the node with parents of the child (polymorphic ones): neither prefetch knows them all
      request.set(child, undefined);
      continue;
    }
    if (!prefetchable(relationship) || hasOwnQuery(plan.nodeParams.get(child))) continue;
    const prefetch = choosePrefetch(relationship, mode) ? startPrefetch(relationship, child, plan, scope, graph) : undefined;
    if (!request) requests.set(graph, (request = new Map()));
    request.set(child, { relationship, prefetch });
  }
}

/** The pending entry of `node` in this request; undefined when there is none. */
export function pendingOf(graph: IncludeGraph, node: IncludeNode): PendingNode | undefined {
  return requests.get(graph)?.get(node);
}

/**
 * Times the request's choices by its whole sideload stage, `ms`: a
 * prefetch that shortens its own chain can still lengthen the request, its
 * statement competing with the others for the database and the cores.
 */
export function timePrefetchChoices(graph: IncludeGraph, ms: number): void {
  for (const entry of requests.get(graph)?.values() ?? []) if (entry) timeLoad(entry.relationship, entry.prefetch !== undefined, ms);
}

/**
 * A prefetch's records for the parents' `keys`, in the order the usual
 * query would return them; undefined when it was started for another
 * relationship, failed, or lacks one of the keys: load them the usual way.
 */
export async function prefetchedRecords(entry: PendingNode, relationship: RelationshipDefinition, related: ResourceClass, keys: readonly unknown[]): Promise<unknown[] | undefined> {
  const prefetch = entry.prefetch;
  if (!prefetch || entry.relationship !== relationship || prefetch.related !== related) return undefined;
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
  scorePrefetch(relationship, complete);
  return complete ? kept : undefined;
}

/**
 * Deep filters, stats or a page size of the child's own: a prefetch would
 * miss or count the wrong records (startPrefetch refuses it), so the load is
 * neither tried nor timed, and requests of that shape leave `auto`'s choice
 * for the relationship to the requests a prefetch could serve.
 */
function hasOwnQuery(params: NodeParams | undefined): boolean {
  if (!params) return false;
  return Object.keys(params.filter).length > 0 || Object.keys(params.stats).length > 0 || params.pageSize !== undefined;
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
    // the same database as the parents, whose adapter said its reads run side by side
    if (!adapter.filterRelated || !adapter.nestsScope?.(ruledScope(resource, resource.baseScope()), parentScope)) return undefined;
    // prefetchable: no params block, so the node's remembered plan serves (the usual load after a miss finds it too)
    plan = plannedNodeQuery(resource, parentPlan, node);
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
  return { related, records };
}
