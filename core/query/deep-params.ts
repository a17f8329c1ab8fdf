import { InvalidQueryError } from '../errors/index.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { breadthFirst, targetResources, type IncludeNode } from './include-tree.ts';
import { variantsOf } from '../resource/polymorphism.ts';
import { listOf, type QueryParams } from '../query-params.ts';
import { configurationCache } from '../resource/revision.ts';
import { assignEntries, copyPlain, dictionary } from '../dictionary.ts';

type ResourceClass = typeof ResourceBase;

/** The part of a query that applies to one include node's records. */
export interface NodeParams {
  filter: Record<string, unknown>;
  /** Filter name → the parameter it came from, so errors point at it. */
  filterParameters: Map<string, string>;
  sort: string[];
  pageSize?: unknown;
  stats: Record<string, unknown>;
}

/** A node's part as query parameters of their own, for its Resource's query: copies, so a relationship's `params` block may edit them. */
export function nodeQueryParams(node: NodeParams): QueryParams {
  return {
    // deep: a relationship's params block may change any of it, and the plan holding node stays as built (plan-cache.ts)
    filter: { ...(copyPlain(node.filter) as Record<string, unknown>) },
    sort: [...node.sort],
    page: node.pageSize === undefined ? {} : { size: node.pageSize },
    stats: { ...node.stats },
  } as QueryParams;
}

export interface PartitionedParams {
  filter: Record<string, unknown>;
  sort: string[];
  page: Record<string, unknown>;
  stats: Record<string, unknown>;
  nodes: Map<IncludeNode, NodeParams>;
}

/**
 * Splits a query into the root's part and each include node's part: deep
 * filters (`filter[positions.title]`, `filter[positions][title]`), sorts
 * (`sort=positions.title`), per-parent page sizes (`page[positions][size]`)
 * and stats (`stats[positions][total]`). A deep parameter for a relationship
 * that is not included is ignored, as clients of this framework family expect.
 */
export function partitionParams(root: ResourceClass, params: QueryParams, tree: IncludeNode[]): PartitionedParams {
  const nodes = breadthFirst(tree);
  const result: PartitionedParams = { filter: dictionary(), sort: [], page: dictionary(), stats: dictionary(), nodes: new Map() };
  for (const node of nodes) result.nodes.set(node, { filter: dictionary(), filterParameters: new Map(), sort: [], stats: dictionary() });
  const typed = (type: string) => nodes.filter((n) => n.resources.some((r) => r.type === type));
  const reachable = reachableTypes(root);
  const rootFilters = new Set(variantsOf(root).flatMap((r) => [...r.config.attributes.keys()]));

  for (const [key, value] of Object.entries(record(params.filter, 'filter'))) {
    if (rootFilters.has(key)) result.filter[key] = value;
    else if (key.includes('.')) routeDotted(key, value, nodes, root);
    else if (typed(key).length > 0) routeTyped(key, value, typed(key), result);
    else if (!reachable.has(key)) result.filter[key] = value; // unknown: the root's validation reports it
  }
  for (const entry of listOf(params.sort, 'sort')) {
    const name = entry.replace(/^[-+]/, '');
    const dot = name.lastIndexOf('.');
    if (dot === -1) result.sort.push(entry);
    else if (typed(name.slice(0, dot)).length > 0) for (const node of typed(name.slice(0, dot))) result.nodes.get(node)!.sort.push(entry.replace(`${name.slice(0, dot)}.`, ''));
    else if (!reachable.has(name.slice(0, dot))) result.sort.push(entry);
  }
  for (const [key, value] of Object.entries(record(params.page, 'page'))) {
    if (key === 'size' || key === 'number' || key === 'after' || key === 'before') result.page[key] = value;
    else routePage(key, value, typed(key), reachable, result);
  }
  for (const [key, value] of Object.entries(record(params.stats, 'stats'))) {
    const isTyped = typeof value === 'object' && value !== null && !Array.isArray(value);
    if (isTyped && typed(key).length > 0) for (const node of typed(key)) assignEntries(result.nodes.get(node)!.stats, value);
    else if (!(isTyped && reachable.has(key))) result.stats[key] = value;
  }
  return result;

  function routeDotted(key: string, value: unknown, all: IncludeNode[], rootClass: ResourceClass): void {
    const dot = key.lastIndexOf('.');
    const node = all.find((n) => n.path === key.slice(0, dot));
    if (node) {
      const target = result.nodes.get(node)!;
      target.filter[key.slice(dot + 1)] = value;
      target.filterParameters.set(key.slice(dot + 1), `filter[${key}]`);
      return;
    }
    const first = key.split('.')[0]!;
    if (!variantsOf(rootClass).some((r) => r.config.relationships.has(first))) result.filter[key] = value;
  }
}

function routeTyped(type: string, value: unknown, nodes: IncludeNode[], result: PartitionedParams): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidQueryError('invalid_parameter', `filter[${type}] names included ${type}; use filter[${type}][<attribute>]=<value>`, {
      parameter: `filter[${type}]`,
    });
  }
  for (const node of nodes) {
    const target = result.nodes.get(node)!;
    for (const [name, v] of Object.entries(value)) {
      target.filter[name] = v;
      target.filterParameters.set(name, `filter[${type}][${name}]`);
    }
  }
}

function routePage(key: string, value: unknown, nodes: IncludeNode[], reachable: Set<string>, result: PartitionedParams): void {
  const isTyped = typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isTyped || (nodes.length === 0 && !reachable.has(key))) {
    throw new InvalidQueryError('unknown_page_parameter', `Unknown page parameter "${key}"; use page[size], page[number], page[after], page[before] or page[<included type>][size]`, {
      parameter: `page[${key}]`,
    });
  }
  for (const [k] of Object.entries(value as object)) {
    if (k !== 'size') {
      throw new InvalidQueryError('unknown_page_parameter', `Included ${key} take page[${key}][size] only`, { parameter: `page[${key}][${k}]` });
    }
  }
  for (const node of nodes) result.nodes.get(node)!.pageSize = (value as { size?: unknown }).size;
}

const reachable = configurationCache<ResourceClass, Set<string>>();

/** Types of every Resource a relationship of `root` (or of its children) leads to; remembered until configuration changes. */
function reachableTypes(root: ResourceClass): Set<string> {
  return reachable(root, undefined, () => collectReachable(root));
}

function collectReachable(root: ResourceClass): Set<string> {
  const types = new Set<string>();
  const seen = new Set<ResourceClass>();
  const visit = (resource: ResourceClass) => {
    if (seen.has(resource)) return;
    seen.add(resource);
    for (const variant of variantsOf(resource)) {
      for (const relationship of variant.config.relationships.values()) {
        try {
          for (const target of targetResources(relationship)) {
            types.add(target.type);
            visit(target);
          }
        } catch {
          // an unresolvable relationship is reported when it is included
        }
      }
    }
  };
  visit(root);
  return types;
}

function record(value: unknown, parameter: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new InvalidQueryError('invalid_parameter', `${parameter} must be given as ${parameter}[name]=value`, { parameter });
}
