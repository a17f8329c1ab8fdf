import { copyPlain } from '../dictionary.ts';
import type { QueryParams } from '../query-params.ts';
import { recordingGuards, stillAnswered, type GuardAnswer } from '../resource/guard-answers.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { configurationRevision } from '../resource/revision.ts';
import { buildNodeQuery, buildQuery, type BuildOptions } from './build-query.ts';
import { nodeQueryParams } from './deep-params.ts';
import type { IncludeNode } from './include-tree.ts';
import type { QueryPlan } from './query-plan.ts';

type ResourceClass = typeof ResourceBase;

/** Plans kept per Resource, the oldest making room: a client sending endless distinct queries costs builds, not memory. */
export const MAX_CACHED_PLANS = 256;
/** A query whose key would be longer is built every time. */
const MAX_KEY_LENGTH = 4096;
/** Deeper parameters are built every time (HTTP's never are; in-process ones might even be cyclic). */
const MAX_DEPTH = 6;

interface Entry {
  readonly revision: number;
  readonly settings: readonly unknown[];
  readonly plan: QueryPlan;
  readonly answers: readonly GuardAnswer[];
}

const plans = new WeakMap<ResourceClass, Map<string, Entry>>();

/**
 * buildQuery, remembered per Resource and query. Validating a request against
 * the declarations is the same work for every request of the same shape, and
 * touching that much code between a request's round trips costs more than
 * the work itself (the caches are cold). A plan is reused only while the
 * configuration, the Resource's page and include limits, and the answer of
 * every guard consulted while it was built are what they were; it is built
 * from a private copy of the parameters, and frozen, so neither the caller
 * nor a later stage can change it under another request.
 */
export function plannedQuery(resource: ResourceBase, params: QueryParams, options: BuildOptions = {}): QueryPlan {
  const key = cacheKey(params, options);
  if (key === undefined) return buildQuery(resource, params, options);
  const resourceClass = resource.resourceClass;
  let byKey = plans.get(resourceClass);
  if (!byKey) plans.set(resourceClass, (byKey = new Map()));
  const revision = configurationRevision();
  const settings = settingsOf(resourceClass);
  const hit = byKey.get(key);
  if (reusable(hit, revision, settings)) return hit.plan;
  const { value: plan, answers } = recordingGuards(() => buildQuery(resource, copyPlain(params) as QueryParams, options));
  // filter[has] reads other Resources' limits too: such plans are built every time
  if (answers === undefined || (plan.related?.length ?? 0) > 0) return plan;
  if (!hit && byKey.size >= MAX_CACHED_PLANS) byKey.delete(byKey.keys().next().value!);
  byKey.set(key, { revision, settings, plan: freezePlan(plan), answers });
  return plan;
}

interface NodeEntry extends Entry {
  readonly plain: boolean;
}

/** Node plans by the node of a remembered plan (nodes of plans built every time die with them), then by Resource. */
const nodePlans = new WeakMap<IncludeNode, Map<ResourceClass, NodeEntry[]>>();

/**
 * buildNodeQuery for a relationship without a `params` block, whose node
 * plan then depends only on the parent plan's parts for that node (the same
 * objects while the parent plan is remembered), the related Resource's
 * settings and guards, and whether rows may be plain: remembered on the
 * same terms as plannedQuery's.
 */
export function plannedNodeQuery(resource: ResourceBase, parent: QueryPlan, node: IncludeNode): QueryPlan {
  const resourceClass = resource.resourceClass;
  let byResource = nodePlans.get(node);
  if (!byResource) nodePlans.set(node, (byResource = new Map()));
  const entries = byResource.get(resourceClass) ?? [];
  const revision = configurationRevision();
  const settings = settingsOf(resourceClass);
  const plain = parent.plain ?? false;
  const hit = entries.find((entry) => entry.plain === plain);
  if (reusable(hit, revision, settings)) return hit.plan;
  const { value: plan, answers } = recordingGuards(() => buildNodeQuery(resource, parent, node, nodeQueryParams(parent.nodeParams.get(node)!)));
  if (answers === undefined) return plan;
  byResource.set(resourceClass, [...entries.filter((entry) => entry !== hit && entry.plain !== plain), { revision, settings, plan: freezePlan(plan), answers, plain }]);
  return plan;
}

/** How many plans a Resource keeps now (for tests of the bound). */
export function cachedPlanCount(resourceClass: ResourceClass): number {
  return plans.get(resourceClass)?.size ?? 0;
}

/** The class settings buildQuery reads: assigning one at runtime does not move the configuration revision. */
function settingsOf(resourceClass: ResourceClass): readonly unknown[] {
  const { maxPageSize, defaultPageSize, maxIncludeDepth, maxIncludes, maxFilterValues, defaultSort } = resourceClass;
  return [maxPageSize, defaultPageSize, maxIncludeDepth, maxIncludes, maxFilterValues, defaultSort];
}

/** Whether a remembered plan may serve this request: same configuration, same settings, every guard answering as it did. */
function reusable<E extends Entry>(entry: E | undefined, revision: number, settings: readonly unknown[]): entry is E {
  if (!entry || entry.revision !== revision) return false;
  for (let i = 0; i < settings.length; i++) if (entry.settings[i] !== settings[i]) return false;
  return stillAnswered(entry.answers);
}

function cacheKey(params: QueryParams, options: BuildOptions): string | undefined {
  const { id, enforceRequired } = options;
  if (id !== undefined && typeof id !== 'string' && typeof id !== 'number') return undefined;
  const query = keyOf(params, 0, '');
  if (query === undefined) return undefined;
  return `${id === undefined ? '' : `${typeof id}:${String(id)}`}\u0000${String(enforceRequired)}\u0000${query}`;
}

/** The parameters as text that tells every two different ones apart; undefined for anything but JSON-like data. */
function keyOf(value: unknown, depth: number, prefix: string): string | undefined {
  if (prefix.length > MAX_KEY_LENGTH) return undefined;
  switch (typeof value) {
    case 'string':
      return prefix + JSON.stringify(value);
    case 'number':
      return prefix + (Object.is(value, -0) ? '-0' : String(value));
    case 'boolean':
      return prefix + String(value);
    case 'undefined':
      return `${prefix}u`;
    case 'object':
      if (value === null) return `${prefix}null`;
      if (depth >= MAX_DEPTH) return undefined;
      return Array.isArray(value) ? listKey(value, depth, prefix) : objectKey(value, depth, prefix);
    default:
      return undefined;
  }
}

function listKey(list: readonly unknown[], depth: number, prefix: string): string | undefined {
  let key: string | undefined = `${prefix}[`;
  for (let i = 0; i < list.length && key !== undefined; i++) key = keyOf(list[i], depth + 1, i === 0 ? key : `${key},`);
  return key === undefined ? undefined : `${key}]`;
}

function objectKey(object: object, depth: number, prefix: string): string | undefined {
  const prototype = Object.getPrototypeOf(object) as unknown;
  if (prototype !== null && prototype !== Object.prototype) return undefined;
  let key: string | undefined = `${prefix}{`;
  let first = true;
  for (const name of Object.keys(object)) {
    key = keyOf((object as Record<string, unknown>)[name], depth + 1, `${first ? key : `${key},`}${JSON.stringify(name)}:`);
    if (key === undefined) return undefined;
    first = false;
  }
  return `${key}}`;
}

function freezePlan(plan: QueryPlan): QueryPlan {
  for (const condition of plan.filters) {
    Object.freeze(condition.values);
    Object.freeze(condition);
  }
  for (const sort of plan.sorts) Object.freeze(sort);
  for (const stat of plan.stats) {
    Object.freeze(stat.calculations);
    Object.freeze(stat);
  }
  Object.freeze(plan.filters);
  Object.freeze(plan.sorts);
  Object.freeze(plan.stats);
  if (plan.page) Object.freeze(plan.page);
  freezeNodes(plan.include);
  return Object.freeze(plan);
}

function freezeNodes(nodes: readonly IncludeNode[]): void {
  for (const node of nodes) {
    freezeNodes(node.children);
    Object.freeze(node.children);
    Object.freeze(node);
  }
  Object.freeze(nodes);
}
