import { InvalidQueryError, RecordNotFound } from '../errors/index.ts';
import { plannedQuery } from '../query/plan-cache.ts';
import { readsPlainRows } from '../query/plain-records.ts';
import type { PageRequest, QueryPlan } from '../query/query-plan.ts';
import type { QueryParams } from '../query-params.ts';
import { loadRecords, scopeRecords } from '../read/load-records.ts';
import type { StatsResult } from '../read/run-stats.ts';
import type { PaginationLinks } from '../render/document.ts';
import { paginationLinks } from '../render/pagination-links.ts';
import { cursorLinks } from '../render/cursor-links.ts';
import { pageCursors, type PageCursors } from '../read/page-cursors.ts';
import { variantFor } from '../resource/polymorphism.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { IncludeGraph, type LoadedRecord } from '../sideload/include-graph.ts';
import { sideload } from '../sideload/sideload.ts';
import type { Action } from '../resource/action.ts';

type ResourceClass = typeof ResourceBase;

/** The HTTP request a proxy answers, for links and endpoint validation. */
export interface ProxyRequest {
  /** Path of the request, e.g. `/api/v1/employees`. */
  path: string;
  /** Raw query string, without `?`. */
  query: string;
  action: Action;
}

/** What one proxy reads: a Resource's own records (`all`, `find`) or a relationship's (`related`). */
export interface QuerySource {
  readonly resource: ResourceClass;
  readonly params: QueryParams;
  readonly baseScope?: unknown;
  /** `find`: the id to match. */
  readonly id?: unknown;
  /** `many`: a page of records; `one`: the first record, or none. */
  readonly shape: 'many' | 'one';
  /** `find`: no record is a RecordNotFound rather than `null`. */
  readonly mustExist?: boolean;
  /** Nothing can match (a null foreign key): the query is checked, not run. */
  readonly empty?: boolean;
  /** Picks the records to keep out of those found, after the query (relationships with an `assign` block); not paginated. */
  readonly pick?: (records: LoadedRecord[]) => LoadedRecord[];
  /** At most this many records before `pick`; more is a 400, as for `include`. */
  readonly maxPicked?: number;
  readonly enforceRequired?: boolean;
  /** What pagination links start with: the requested Resource's `baseUrl`. */
  readonly baseUrl: string;
}

export interface Loaded {
  plan: QueryPlan;
  records: LoadedRecord[];
  stats: StatsResult;
  graph: IncludeGraph;
  links?: PaginationLinks;
  /** One record or null, rather than a list. */
  single: boolean;
  /** A cursor page: the cursors of the pages before and after it. */
  cursors?: PageCursors;
}

/**
 * The read pipeline every proxy runs: parse and validate, scope, load
 * (records and stats together), sideload includes, count for pagination
 * links when the page does not tell the total itself.
 */
export async function runQuery(source: QuerySource, renderOnly: boolean, request?: ProxyRequest): Promise<Loaded> {
  const resourceClass = source.resource;
  const resource = new resourceClass();
  const built = plannedQuery(resource, source.params, { id: source.id, enforceRequired: source.enforceRequired });
  const plain = renderOnly && readsPlainRows(resourceClass, built.extraFields, built.include);
  const plan: QueryPlan = { ...built, plain, page: pageOf(source, built.page) };
  const graph = new IncludeGraph(resourceClass.maxIncludedRecords);
  const single = source.shape === 'one';
  if (source.empty) return { plan, records: [], stats: {}, graph, single };
  const keyset = plan.page?.keyset;
  const wantsLinks = Boolean(request && !single && !source.pick && !keyset && plan.page && plan.page.size > 0 && resourceClass.paginationLinks);
  const scopes = scopeRecords(resource, plan, { baseScope: source.baseScope });
  const loading = loadRecords(resource, plan, {}, scopes);
  const early = wantsLinks ? earlyCount(resource, plan, built, scopes.filtered) : undefined;
  const { records, stats, more } = await loading;
  if (source.mustExist && records.length === 0) throw new RecordNotFound(resourceClass.type, source.id);
  const roots = kept(source, (records as object[]).map((record) => ({ record, resource: variantFor(resourceClass, record) })));
  const sideloads = sideload(roots, plan, graph);
  const total = wantsLinks ? totalCount(resource, plan, built, records.length, stats, scopes.filtered, early) : undefined;
  await Promise.all([sideloads, total]);
  const loaded: Loaded = { plan, records: roots, stats, graph, single };
  if (request && total) loaded.links = paginationLinks(source.baseUrl + request.path, request.query, plan.page!, await total);
  if (keyset) {
    // cursor pages need no count: the extra record read tells whether another page follows
    loaded.cursors = pageCursors(keyset, records, more ?? false);
    if (request && resourceClass.paginationLinks) loaded.links = cursorLinks(source.baseUrl + request.path, request.query, plan.page!, loaded.cursors);
  }
  return loaded;
}

/** A picked relationship loads what `include` would (one more than the limit, to see it is over); a to-one, its first record. */
function pageOf(source: QuerySource, page: PageRequest | undefined): PageRequest | undefined {
  if (source.id !== undefined) return page;
  if (source.pick) return source.maxPicked === undefined ? undefined : { size: source.maxPicked + 1, number: 1 };
  return source.shape === 'one' ? { size: 1, number: 1 } : page;
}

function kept(source: QuerySource, records: LoadedRecord[]): LoadedRecord[] {
  if (!source.pick) return source.shape === 'one' ? records.slice(0, 1) : records;
  if (source.maxPicked !== undefined && records.length > source.maxPicked) {
    throw new InvalidQueryError('too_many_included_records', `The relationship has more than ${source.maxPicked} records, the most include would load`, {
      parameter: 'filter',
    });
  }
  const picked = source.pick(records);
  return source.shape === 'one' ? picked.slice(0, 1) : picked;
}

/**
 * Cached plans (plan-cache.ts) whose last page needed a COUNT: the page was
 * full, so it could not tell the total itself. Their next request asks for
 * the count with the page even where reads queue on one connection (SQLite),
 * since the count then follows the page there without another round through
 * the event loop, and a busy server sends both as one statement
 * (driver-select.ts). A plan whose last page was short counts only if this
 * one is full, as before: a small collection is never counted for nothing
 * twice in a row.
 */
const countedLastTime = new WeakSet<QueryPlan>();

/**
 * Where independent reads overlap (a pool of connections), the count behind
 * pagination links starts with the page query rather than after it, unless
 * a stat computes it anyway. The page query is the only statement of its
 * wave, so the count overlaps it with a core to spare; started after the
 * page, it competed with the sideloads (three statements on two cores in
 * the bench's include request), where the nested chain everything waits on
 * runs, and a lone PostgreSQL include request took 6–7% longer. A short
 * page, which tells the total itself, leaves it unused.
 */
function earlyCount(resource: ResourceBase, plan: QueryPlan, cached: QueryPlan, scope: unknown): Promise<number> | undefined {
  if (!resource.adapter.concurrentReads?.() && !countedLastTime.has(cached)) return undefined;
  if (plan.stats.some((s) => s.name === 'total' && s.calculations.includes('count'))) return undefined;
  const counting = resource.adapter.count(scope);
  // a short page leaves it unused; its failure must not go unhandled
  counting.catch(() => undefined);
  return counting;
}

/** The total behind pagination links, without a COUNT when the page already tells it. */
async function totalCount(resource: ResourceBase, plan: QueryPlan, cached: QueryPlan, rows: number, stats: StatsResult, scope: unknown, early?: Promise<number>): Promise<number> {
  const page = plan.page!;
  const offset = (page.number - 1) * page.size;
  const short = rows > 0 && rows < page.size;
  if (short || (rows === 0 && page.number === 1)) {
    countedLastTime.delete(cached);
    return short ? offset + rows : 0;
  }
  countedLastTime.add(cached);
  const counted = stats.total?.count;
  if (typeof counted === 'number') return counted;
  return early ?? resource.adapter.count(scope);
}
