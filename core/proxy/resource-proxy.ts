import { context as currentContext, withContext, type MuralContext } from '../context.ts';
import { unlessTransient } from '../adapter/transient-failure.ts';
import { withDeadline } from '../deadline.ts';
import { InvalidEndpointError, RecordNotFound, type JsonApiErrorObject } from '../errors/index.ts';
import { WriteProxy } from '../write/write-proxy.ts';
import { buildQuery } from '../query/build-query.ts';
import type { QueryParams } from '../query/query-params.ts';
import type { QueryPlan } from '../query/query-plan.ts';
import { loadRecords, scopeRecords } from '../read/load-records.ts';
import type { StatsResult } from '../read/run-stats.ts';
import type { JsonApiDocument, PaginationLinks } from '../render/document.ts';
import { paginationLinks } from '../render/pagination-links.ts';
import { renderDocument } from '../render/render-document.ts';
import { toSimpleJson, type SimpleJsonDocument } from '../render/simple-json.ts';
import { toXmlDocument } from '../render/xml.ts';
import type { Resource } from '../resource/resource.ts';
import { prepareResources } from '../relationships/prepare.ts';
import { readsPlainRows } from '../read/plain-records.ts';
import { servedResources, variantFor } from '../resource/polymorphism.ts';
import { IncludeGraph, type LoadedRecord } from '../sideload/include-graph.ts';
import { sideload } from '../sideload/sideload.ts';
import type { Action } from '../resource/resource-config.ts';
import { assertAllowed } from '../resource/resource-guard.ts';

/** The HTTP request a proxy answers, for links and endpoint validation. */
export interface ProxyRequest {
  /** Path of the request, e.g. `/api/v1/employees`. */
  path: string;
  /** Raw query string, without `?`. */
  query: string;
  action: Action;
}

export interface ProxyOptions {
  baseScope?: unknown;
  single?: boolean;
  request?: ProxyRequest;
}

interface Loaded {
  plan: QueryPlan;
  records: LoadedRecord[];
  stats: StatsResult;
  graph: IncludeGraph;
  links?: PaginationLinks;
}

/**
 * A lazy query. Nothing runs until `data`, `meta`, iteration or a render
 * method is used; then the query runs once and every reader shares it. The
 * context current at creation is the one the query runs in.
 */
export class ResourceProxy implements AsyncIterable<unknown> {
  private loading?: Promise<Loaded>;
  /** A load for rendering only, which may read plain rows. */
  private rendering?: Promise<Loaded>;
  private readonly capturedContext: MuralContext | undefined;

  constructor(
    readonly resourceClass: typeof Resource,
    readonly params: QueryParams,
    private readonly options: ProxyOptions = {},
  ) {
    this.capturedContext = currentContext();
  }

  get single(): boolean {
    return this.options.single ?? false;
  }

  /** The records (an array), or the record for `find`. */
  get data(): Promise<unknown> {
    return this.load().then((l) => (this.single ? l.records[0]?.record : l.records.map((r) => r.record)));
  }

  get meta(): Promise<Record<string, unknown>> {
    return this.load().then((l) => (Object.keys(l.stats).length > 0 ? { stats: l.stats } : {}));
  }

  get stats(): Promise<StatsResult> {
    return this.load().then((l) => l.stats);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<unknown> {
    const { records } = await this.load();
    for (const { record } of records) yield record;
  }

  async toJsonapi(): Promise<JsonApiDocument> {
    const loaded = await this.loadForRender();
    return this.run(() =>
      renderDocument({ plan: loaded.plan, records: loaded.records, single: this.single, stats: loaded.stats, graph: loaded.graph, links: loaded.links }),
    );
  }

  async toJson(): Promise<SimpleJsonDocument> {
    return toSimpleJson(await this.toJsonapi());
  }

  async toXml(): Promise<string> {
    return toXmlDocument(await this.toJson(), this.resourceClass.type);
  }

  /** The 422 error objects of the last `update` or `destroy`. */
  errors: JsonApiErrorObject[] = [];
  private lastWrite?: WriteProxy;

  /** Updates the record `find` named from a JSON:API payload; false (with `errors`) when invalid. */
  async update(payload: unknown): Promise<boolean> {
    return this.write(new WriteProxy(this.resourceClass, payload, { action: 'update', id: this.idParam() }, this.params));
  }

  /** Destroys the record `find` named. */
  async destroy(): Promise<boolean> {
    return this.write(new WriteProxy(this.resourceClass, undefined, { action: 'destroy', id: this.idParam() }, this.params));
  }

  /** The document of the last `update`. */
  async toWrittenJsonapi(): Promise<JsonApiDocument> {
    if (!this.lastWrite) throw new Error('update() or destroy() first');
    return this.lastWrite.toJsonapi();
  }

  private async write(proxy: WriteProxy): Promise<boolean> {
    const saved = await this.run(() => proxy.save());
    this.errors = proxy.errors;
    this.lastWrite = proxy;
    this.loading = undefined;
    this.rendering = undefined;
    return saved;
  }

  private idParam(): string {
    const id = (this.params as { id?: unknown }).id;
    if (!this.single || id === undefined) throw new Error('update() and destroy() need a proxy from find({ id })');
    return String(id);
  }

  private load(): Promise<Loaded> {
    this.loading ??= this.run(() => this.execute(false));
    return this.loading;
  }

  /**
   * Rendering never hands records to user code, so it may use plain rows; a
   * later `data` then runs the query again for model instances.
   */
  private loadForRender(): Promise<Loaded> {
    if (this.loading) return this.loading;
    this.rendering ??= this.run(() => this.execute(true));
    return this.rendering;
  }

  /** In the context captured at creation, under the request's database deadline (or a new one). */
  private run<R>(fn: () => R): R {
    const limited = () => withDeadline(fn);
    return this.capturedContext ? withContext(this.capturedContext, limited) : limited();
  }

  private async execute(renderOnly: boolean): Promise<Loaded> {
    try {
      return await this.query(renderOnly);
    } catch (error) {
      throw unlessTransient(this.resourceClass, error);
    }
  }

  private async query(renderOnly: boolean): Promise<Loaded> {
    const resourceClass = this.resourceClass;
    prepareResources();
    this.validateEndpoint();
    // before any query, so a refusal says nothing about whether the record exists;
    // a polymorphic parent reads its children's records, so each must allow it
    assertAllowed(servedResources(resourceClass), this.single ? 'show' : 'index', resourceClass.type);
    const resource = new resourceClass();
    const id = this.single ? (this.params as { id?: unknown }).id : undefined;
    const built = buildQuery(resource, this.params, { id });
    const plain = renderOnly && readsPlainRows(resourceClass, built.extraFields, built.include);
    const plan = { ...built, plain };
    const request = this.options.request;
    const wantsLinks = Boolean(request && !this.single && plan.page && plan.page.size > 0 && resourceClass.paginationLinks);
    const scopes = scopeRecords(resource, plan, { baseScope: this.options.baseScope });
    const loading = loadRecords(resource, plan, {}, scopes);
    const early = wantsLinks ? earlyCount(resource, plan, scopes.filtered) : undefined;
    const { records, stats } = await loading;
    if (this.single && records.length === 0) throw new RecordNotFound(resourceClass.type, id);
    const graph = new IncludeGraph(resourceClass.maxIncludedRecords);
    const roots = (records as object[]).map((record) => ({ record, resource: variantFor(resourceClass, record) }));
    const sideloads = sideload(roots, plan, graph);
    const total = wantsLinks ? totalCount(resource, plan, records.length, stats, scopes.filtered, early) : undefined;
    await Promise.all([sideloads, total]);
    const loaded: Loaded = { plan, records: roots, stats, graph };
    if (request && total) loaded.links = paginationLinks((resourceClass.baseUrl ?? '') + request.path, request.query, plan.page!, await total);
    return loaded;
  }

  private validateEndpoint(): void {
    const request = this.options.request;
    const resourceClass = this.resourceClass;
    if (!request || !resourceClass.validateEndpoints) return;
    const collectionPath = request.path.replace(/\/[^/]+$/, '');
    const allowed = resourceClass.endpoints.some(
      (e) => (e.path === request.path || (this.single && e.path === collectionPath)) && e.actions.includes(request.action),
    );
    if (!allowed) throw new InvalidEndpointError(resourceClass.name, request.path, request.action);
  }
}

/**
 * Where independent reads overlap (a pool of connections), the count behind
 * pagination links starts with the page query rather than after it, unless
 * a stat computes it anyway; on one connection it waits, so that a short
 * page, which tells the total itself, costs no count at all.
 */
function earlyCount(resource: Resource, plan: QueryPlan, scope: unknown): Promise<number> | undefined {
  if (!resource.adapter.concurrentReads?.() || plan.stats.some((s) => s.name === 'total' && s.calculations.includes('count'))) return undefined;
  const counting = resource.adapter.count(scope);
  // a short page leaves it unused; its failure must not go unhandled
  counting.catch(() => undefined);
  return counting;
}

/** The total behind pagination links, without a COUNT when the page already tells it. */
async function totalCount(resource: Resource, plan: QueryPlan, rows: number, stats: StatsResult, scope: unknown, early?: Promise<number>): Promise<number> {
  const page = plan.page!;
  const offset = (page.number - 1) * page.size;
  if (rows > 0 && rows < page.size) return offset + rows;
  if (rows === 0 && page.number === 1) return 0;
  const counted = stats.total?.count;
  if (typeof counted === 'number') return counted;
  return early ?? resource.adapter.count(scope);
}
