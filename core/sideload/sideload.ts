import { InvalidQueryError } from '../errors/index.ts';
import { buildNodeQuery } from '../query/build-query.ts';
import { nodeQueryParams } from '../query/deep-params.ts';
import { findRelationship, type IncludeNode } from '../query/include-tree.ts';
import type { QueryPlan } from '../query/query-plan.ts';
import { plannedNodeQuery } from '../query/plan-cache.ts';
import { loadRecords, scopeRecords } from '../read/load-records.ts';
import type { StatsResult } from '../read/run-stats.ts';
import { relatedResource } from '../resource/resolve-resource.ts';
import { foreignKeyOf } from '../relationships/relationship-keys.ts';
import { TO_MANY, type RelationshipDefinition } from '../resource/relationship-definition.ts';
import { variantFor } from '../resource/polymorphism.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import type { IncludeGraph, LoadedRecord } from './include-graph.ts';
import { prefetchChildren, prefetchedRecords, pendingOf, timePrefetchChoices } from './nested-prefetch.ts';
import { linkStrategy, type LinkStrategy } from './relationship-links.ts';

type ResourceClass = typeof ResourceBase;

/**
 * sideload: loads every include node under `parents`, one query per node and
 * Resource whatever the number of parents, siblings concurrently (bounded by
 * the graph's limiter), then recurses into each node's children.
 */
export async function sideload(parents: readonly LoadedRecord[], plan: QueryPlan, graph: IncludeGraph): Promise<void> {
  const startedAt = performance.now();
  await loadLevel(parents, plan, graph);
  timePrefetchChoices(graph, performance.now() - startedAt);
}

async function loadLevel(parents: readonly LoadedRecord[], plan: QueryPlan, graph: IncludeGraph): Promise<void> {
  // one node (the usual nested include) needs no Promise.all and its promises
  if (plan.include.length === 1) return loadNode(parents, plan, plan.include[0]!, graph);
  await Promise.all(longestChainsFirst(plan.include).map((node) => loadNode(parents, plan, node, graph)));
}

/**
 * Siblings in the order their queries start: the deepest first (stable
 * otherwise). `include=teams,positions.department` waits on the chain
 * positions → departments; started first, its query leaves first (each
 * start costs a socket write before the next) and takes the first of the
 * limiter's slots. Documents list included records in `include` order,
 * whatever the order of the loads.
 */
function longestChainsFirst(nodes: readonly IncludeNode[]): readonly IncludeNode[] {
  const depths = nodes.map(chainDepth);
  if (depths.every((depth) => depth === depths[0])) return nodes;
  return nodes.map((node, i) => ({ node, depth: depths[i]! })).sort((a, b) => b.depth - a.depth).map((entry) => entry.node);
}

function chainDepth(node: IncludeNode): number {
  let deepest = 0;
  for (const child of node.children) deepest = Math.max(deepest, chainDepth(child));
  return deepest + 1;
}

async function loadNode(parents: readonly LoadedRecord[], plan: QueryPlan, node: IncludeNode, graph: IncludeGraph): Promise<void> {
  const eligible = declaring(parents, node.name);
  if (eligible.length === 0) return;
  const relationship = findRelationship([eligible[0]!.resource], node.name)!;
  if (relationship.single && eligible.length > 1) {
    throw new InvalidQueryError('single_include', `Include "${node.path}" is only allowed when a single ${eligible[0]!.resource.type} record is requested`, {
      parameter: 'include',
    });
  }
  const groups =
    relationship.kind === 'polymorphic_belongs_to' ? polymorphicGroups(relationship, eligible) : [{ related: relatedResource(relationship), parents: eligible, foreignKey: foreignKeyOf(relationship) }];
  const load = (g: Group) => loadGroup(relationship, g.related, g.parents, g.foreignKey, plan, node, graph);
  const children = groups.length === 1 ? await load(groups[0]!) : (await Promise.all(groups.map(load))).flat();
  graph.addLoaded(node, children);
  for (const parent of eligible) {
    if (graph.relatedTo(parent.record, node.name) === undefined) graph.assign(parent.record, node.name, TO_MANY.has(relationship.kind) ? [] : null);
    if (node.implicit) graph.markImplicit(parent.record, node.name);
  }
  if (node.children.length > 0 && children.length > 0) {
    const childPlan = { ...plan, include: node.children };
    await loadLevel(children, childPlan, graph);
  }
}

/** The parents whose Resource declares the relationship: polymorphic parents differ per child; asked once per Resource, not per record. */
function declaring(parents: readonly LoadedRecord[], name: string): LoadedRecord[] {
  const declares = new Map<ResourceClass, boolean>();
  return parents.filter(({ resource }) => {
    let verdict = declares.get(resource);
    if (verdict === undefined) declares.set(resource, (verdict = resource.config.relationships.has(name)));
    return verdict;
  });
}

interface Group {
  related: ResourceClass;
  parents: LoadedRecord[];
  foreignKey: string;
}

function polymorphicGroups(relationship: RelationshipDefinition, parents: LoadedRecord[]): Group[] {
  const column = relationship.groupBy!;
  return relationship.groups!.flatMap((group) => {
    const members = parents.filter((p) => String((p.record as Record<string, unknown>)[column]) === group.value);
    if (members.length === 0) return [];
    const related = relatedResource(relationship, group.resource ?? group.value);
    return [{ related, parents: members, foreignKey: group.foreignKey ?? foreignKeyOf(relationship) }];
  });
}

async function loadGroup(
  relationship: RelationshipDefinition,
  related: ResourceClass,
  parents: LoadedRecord[],
  foreignKey: string,
  parentPlan: QueryPlan,
  node: IncludeNode,
  graph: IncludeGraph,
): Promise<LoadedRecord[]> {
  const strategy = linkStrategy(relationship, parents[0]!.resource, parents.map((p) => p.record), related, foreignKey);
  if (strategy.keys.length === 0) return [];
  const resource = new related();
  const pending = pendingOf(graph, node);
  const prefetched = pending?.prefetch && (await prefetchedRecords(pending, relationship, related, strategy.keys));
  if (prefetched) return settle(relationship, related, parents, prefetched, {}, strategy, resource, graph, node);
  const nodePlan = relationship.params ? paramsBlockPlan(relationship, parents, resource, parentPlan, node) : plannedNodeQuery(resource, parentPlan, node);
  // a LIMIT of the request's remaining budget: going over is refused without first loading everything
  const budget = graph.recordBudget();
  const plan = budget === undefined ? nodePlan : { ...nodePlan, page: { size: budget, number: 1 } };
  if (plan.perParentLimit !== undefined && !strategy.groupColumn && TO_MANY.has(relationship.kind)) {
    // the related table has no column to partition by: refuse rather than silently ignore the limit
    throw new InvalidQueryError('unsupported_page_size', `page[${related.type}][size] is not supported for the many_to_many relationship "${relationship.name}"`, {
      parameter: `page[${related.type}][size]`,
    });
  }
  const scopes = scopeRecords(resource, plan, { link: (scope) => strategy.link(scope, resource.adapter), groupColumn: strategy.groupColumn });
  const loading = graph.limiter.run(() => loadRecords(resource, plan, {}, scopes));
  if (node.children.length > 0) prefetchChildren(node, resource, plan, scopes.filtered, graph);
  const { records, stats } = await loading;
  return settle(relationship, related, parents, records, stats, strategy, resource, graph, node);
}

/** A relationship's `params` block sees the parents and may change the client's values: its node plan is built for each load. */
function paramsBlockPlan(relationship: RelationshipDefinition, parents: LoadedRecord[], resource: ResourceBase, parentPlan: QueryPlan, node: IncludeNode): QueryPlan {
  // the client's values as given: buildNodeQuery checks them, after the relationship's params block
  const params = nodeQueryParams(parentPlan.nodeParams.get(node)!);
  relationship.params!(params, parents.map((p) => p.record) as never[], resource as never);
  return buildNodeQuery(resource, parentPlan, node, params);
}

/** Counts a node's records against the request's budget, keeps their stats and hands each parent its children. */
function settle(
  relationship: RelationshipDefinition,
  related: ResourceClass,
  parents: LoadedRecord[],
  records: unknown[],
  stats: StatsResult,
  strategy: LinkStrategy,
  resource: ResourceBase,
  graph: IncludeGraph,
  node: IncludeNode,
): LoadedRecord[] {
  graph.countSideloaded(records.length);
  if (Object.keys(stats).length > 0) graph.stats[related.type] = { ...graph.stats[related.type], ...stats };
  const children = (records as object[]).map((record) => ({ record, resource: variantFor(related, record) }));
  assignChildren(relationship, parents, children, strategy, resource, graph, node.name);
  return children;
}

/** Hands each parent its children: by key, or through the relationship's `assign`/`assignEach` block. */
export function assignChildren(
  relationship: RelationshipDefinition,
  parents: LoadedRecord[],
  children: LoadedRecord[],
  strategy: LinkStrategy,
  resource: ResourceBase,
  graph: IncludeGraph,
  name: string,
): void {
  const toMany = TO_MANY.has(relationship.kind);
  const wrap = (records: unknown[]) => children.filter((c) => records.includes(c.record));
  const set = (parent: unknown, value: unknown) => {
    const list = wrap(Array.isArray(value) ? value : value === null || value === undefined ? [] : [value]);
    graph.assign(parent as object, name, toMany ? list : (list[0] ?? null));
  };
  if (relationship.assign) {
    relationship.assign(parents.map((p) => p.record) as never[], children.map((c) => c.record) as never[], set);
    return;
  }
  const byKey = new Map<string, LoadedRecord[]>();
  const add = (key: unknown, child: LoadedRecord) => {
    const name = String(key);
    const list = byKey.get(name);
    if (list) list.push(child);
    else byKey.set(name, [child]);
  };
  for (const child of children) {
    const record = child.record as Record<string, unknown>;
    if (strategy.parentKeyOfChild !== undefined) add(strategy.parentKeyOfChild(record), child);
    else for (const key of strategy.parentKeys(record, resource.adapter)) add(key, child);
  }
  for (const parent of parents) {
    const key = strategy.parentKey(parent.record as Record<string, unknown>);
    const mine = key === null || key === undefined ? [] : (byKey.get(String(key)) ?? []);
    if (relationship.assignEach) {
      set(parent.record, relationship.assignEach(parent.record as never, children.map((c) => c.record) as never[]));
    } else {
      graph.assign(parent.record, name, toMany ? mine : (mine[0] ?? null));
    }
  }
}
