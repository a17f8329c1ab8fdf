import type { ResourceBase } from '../resource/resource-base.ts';
import { buildFieldsets } from './build-fieldsets.ts';
import { buildMetaFields } from './build-meta-fields.ts';
import { buildFilters } from './build-filters.ts';
import { buildRelatedFilters, withoutRelatedFilters } from './related-filters.ts';
import { buildPage } from './build-page.ts';
import { buildSorts, defaultSorts } from './build-sorts.ts';
import { buildStats } from './build-stats.ts';
import { partitionParams } from './deep-params.ts';
import { breadthFirst, buildIncludeTree, type IncludeNode } from './include-tree.ts';
import { variantsOf } from '../resource/polymorphism.ts';
import type { QueryParams } from '../query-params.ts';
import type { QueryPlan } from './query-plan.ts';
import { lookupType } from '../types/index.ts';
import { readsPlainRows } from './plain-records.ts';

type ResourceClass = typeof ResourceBase;

export interface BuildOptions {
  /** `find`: the id to match; disables pagination and required filters. */
  id?: unknown;
  /** Required filters must be given; default: unless `id` is. Related records, as include loads them, need none. */
  enforceRequired?: boolean;
}

/**
 * parse → validate: turns QueryParams into a QueryPlan for `resource`, or
 * throws the first InvalidQueryError a user needs to fix. Include nodes get
 * their own plans when their parents are known (see sideload).
 */
export function buildQuery(resource: ResourceBase, params: QueryParams, options: BuildOptions = {}): QueryPlan {
  const resourceClass = resource.resourceClass;
  const single = options.id !== undefined;
  // the id comes from the path, not from a parameter: a malformed one is a 400 naming none (rather than a filter[id] the client never sent)
  if (single) lookupType(resourceClass.config.attributes.get('id')?.type ?? 'integer_id').params(String(options.id));
  const include = buildIncludeTree(resource, params.include);
  const parts = partitionParams(resourceClass, params, include);
  const related = buildRelatedFilters(resource, parts.filter);
  const own = withoutRelatedFilters(parts.filter);
  const filters = buildFilters(resource, single ? { ...own, id: options.id } : own, { enforceRequired: options.enforceRequired ?? !single });
  const sorts = parts.sort.length > 0 ? buildSorts(resource, parts.sort) : defaultSorts(resource);
  const byType = typesInRequest(resourceClass, include);
  return {
    resource: resourceClass,
    filters,
    related,
    sorts,
    page: single ? undefined : buildPage(resource, parts.page, 'page', sorts),
    stats: buildStats(resource, parts.stats),
    fields: buildFieldsets(record(params.fields), 'fields', byType),
    extraFields: buildFieldsets(record(params.extra_fields), 'extra_fields', byType),
    ...metaFieldsOf(record(params.meta_fields), byType),
    include,
    nodeParams: parts.nodes,
  };
}

/** The plan for one include node's records, once the parents' query is known. */
export function buildNodeQuery(resource: ResourceBase, parent: QueryPlan, node: IncludeNode, params: QueryParams): QueryPlan {
  const nodeParams = parent.nodeParams.get(node)!;
  const filters = buildFilters(resource, (params.filter ?? {}) as Record<string, unknown>, {
    enforceRequired: false,
    parameters: nodeParams.filterParameters,
  });
  const sortEntries = (params.sort ?? []) as string[];
  const type = resource.resourceClass.type;
  const sorts = sortEntries.length > 0 ? buildSorts(resource, sortEntries, 'sort') : defaultSorts(resource);
  const size = (params.page as { size?: unknown } | undefined)?.size;
  return {
    resource: resource.resourceClass,
    filters,
    sorts,
    perParentLimit: size === undefined ? undefined : buildPage(resource, { size }, `page[${type}]`).size,
    stats: buildStats(resource, (params.stats ?? {}) as Record<string, unknown>, `stats[${type}]`),
    fields: parent.fields,
    extraFields: parent.extraFields,
    metaFields: parent.metaFields,
    include: node.children,
    nodeParams: parent.nodeParams,
    plain: (parent.plain ?? false) && readsPlainRows(resource.resourceClass, parent.extraFields, [node, ...node.children]),
  };
}

function typesInRequest(root: ResourceClass, include: readonly IncludeNode[]): Map<string, ResourceClass[]> {
  const byType = new Map<string, ResourceClass[]>();
  const add = (r: ResourceClass) => byType.set(r.type, [...new Set([...(byType.get(r.type) ?? []), r])]);
  variantsOf(root).forEach(add);
  for (const node of breadthFirst(include)) node.resources.forEach(add);
  return byType;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** `meta_fields[type]`, left out of the plan when the request asks none (plans are compared and cached). */
function metaFieldsOf(raw: Record<string, unknown> | undefined, byType: ReadonlyMap<string, readonly ResourceClass[]>): { metaFields?: Map<string, Set<string>> } {
  if (raw === undefined) return {};
  const metaFields = buildMetaFields(raw, byType);
  return metaFields.size > 0 ? { metaFields } : {};
}
