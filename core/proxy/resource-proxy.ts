import { context as currentContext, withContext, type MuralContext } from '../context.ts';
import { unlessTransient } from '../adapter/transient-failure.ts';
import { withDeadline } from '../deadline.ts';
import { InvalidEndpointError, type JsonApiErrorObject } from '../errors/index.ts';
import { WriteProxy } from '../write/write-proxy.ts';
import type { IfMatch } from '../conditional/entity-tags.ts';
import { versionOf } from '../conditional/version.ts';
import type { RelationshipPayload, WritePayload } from '../write/write-payload.ts';
import type { QueryParams } from '../query-params.ts';
import type { StatsResult } from '../read/run-stats.ts';
import type { PageCursors } from '../read/page-cursors.ts';
import type { JsonApiDocument } from '../render/document.ts';
import { renderDocument, renderDocumentText } from '../render/render-document.ts';
import { relationshipUrls } from '../render/relationship-link.ts';
import { toSimpleJson, type SimpleJsonDocument } from '../render/simple-json.ts';
import { toXmlDocument } from '../render/xml.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { prepareResources } from '../relationships/prepare.ts';
import { findRelationship } from '../query/include-tree.ts';
import { servedResources, variantsOf } from '../resource/polymorphism.ts';
import { relatedResource } from '../resource/resolve-resource.ts';
import { assertAllowed } from '../resource/resource-guard.ts';
import type { RelationshipOperation } from '../related/find-relationship.ts';
import { assertLinkageParams, renderLinkage, type LinkageDocument, type LinkageLinks } from '../related/linkage.ts';
import type { RelatedTarget } from '../related/related-target.ts';
import { RelationshipWrite } from '../related/relationship-write.ts';
import { resolveRelated, type RelatedRequest } from '../related/resolve-related.ts';
import { runQuery, type Loaded as LoadedQuery, type ProxyRequest, type QuerySource } from './run-query.ts';

export type { ProxyRequest } from './run-query.ts';

/**
 * How a proxy queries: the scope it starts from, whether it reads one record, and the HTTP request
 * it answers, if any.
 */
export interface ProxyOptions {
  baseScope?: unknown;
  single?: boolean;
  request?: ProxyRequest;
  /** A relationship of one record (what `find(…).related(name)` reads) instead of the Resource's own records. */
  related?: RelatedRequest;
}

interface Loaded extends LoadedQuery {
  /** For a related proxy: the relationship of the record it read. */
  target?: RelatedTarget;
}

/** Options of a write through a proxy. */
export interface WriteOptions {
  /**
   * Write only if the record is still at one of these versions (`version()`,
   * or the version part of its ETag); `'*'` only asks that it exist. Stale:
   * a PreconditionFailed (412), and nothing is written.
   */
  ifMatch?: IfMatch;
  /**
   * Write only if the record is at none of these versions; `'*'` only if it
   * does not exist, so an update or destroy of one that does is a
   * PreconditionFailed (HTTP's `If-None-Match`).
   */
  ifNoneMatch?: IfMatch;
}

/**
 * A lazy query, as `Resource.all` and `Resource.find` return it. Nothing runs
 * until `data`, `meta`, iteration or a render method is used; then the query
 * runs once and every reader shares it. The context current at creation is
 * the one the query runs in. `Model` is the Resource's model (see ModelOf),
 * `Data` what `data` resolves to: the models for `all`, the model for `find`.
 * `find(…)` proxies also write: `update`, `destroy` and the relationship writes.
 */
export class ResourceProxy<Model = unknown, Data = unknown> implements AsyncIterable<Model> {
  private loading?: Promise<Loaded>;
  /** A load for rendering only, which may read plain rows. */
  private rendering?: Promise<Loaded>;
  private readonly capturedContext: MuralContext | undefined;

  constructor(
    readonly resourceClass: typeof ResourceBase,
    readonly params: QueryParams,
    private readonly options: ProxyOptions = {},
  ) {
    this.capturedContext = currentContext();
  }

  get single(): boolean {
    return this.options.single ?? false;
  }

  /** The records (an array), or the record for `find`. */
  get data(): Promise<Data> {
    return this.load().then((l) => (l.single ? (l.records[0]?.record ?? null) : l.records.map((r) => r.record)) as Data);
  }

  /** `{ stats }` when stats were asked for, `{}` otherwise. */
  get meta(): Promise<{ stats?: StatsResult }> {
    return this.load().then((l) => (Object.keys(l.stats).length > 0 ? { stats: l.stats } : {}));
  }

  /**
   * For a cursor page (`page: { after }` or `{ before }`): the cursors of the
   * pages before and after it, null where there is none; undefined for any
   * other read.
   */
  get cursors(): Promise<PageCursors | undefined> {
    return this.load().then((l) => l.cursors);
  }

  get stats(): Promise<StatsResult> {
    return this.load().then((l) => l.stats);
  }

  /** Iterates over the models (`for await (const employee of proxy)`), loading them first. */
  async *[Symbol.asyncIterator](): AsyncIterator<Model> {
    const { records } = await this.load();
    for (const { record } of records) yield record as Model;
  }

  /**
   * The JSON:API document the HTTP endpoint would answer (without the `jsonapi` member, which
   * only a transport adds).
   */
  async toJsonapi(): Promise<JsonApiDocument> {
    const loaded = await this.loadForRender();
    return this.run(() =>
      renderDocument({ plan: loaded.plan, records: loaded.records, single: loaded.single, stats: loaded.stats, graph: loaded.graph, links: loaded.links }),
    );
  }

  /**
   * `JSON.stringify` of the document `toJsonapi()` answers, byte for byte,
   * written as text without building the document's objects: what a
   * transport sends. `trailing` members follow the document's own (the
   * `jsonapi` member a transport adds); their names must not be the
   * document's (`data`, `meta`, `included`, `links`).
   */
  async toJsonapiText(trailing?: Record<string, unknown>): Promise<string> {
    const loaded = await this.loadForRender();
    return this.run(() =>
      renderDocumentText({ plan: loaded.plan, records: loaded.records, single: loaded.single, stats: loaded.stats, graph: loaded.graph, links: loaded.links }, trailing),
    );
  }

  /** The records as plain JSON: attributes and included relationships nested in each record. */
  async toJson(): Promise<SimpleJsonDocument> {
    return toSimpleJson(await this.toJsonapi());
  }

  /** The records as an XML document, built from `toJson()`. */
  async toXml(): Promise<string> {
    const document = await this.toJson();
    return toXmlDocument(document, (await this.loadForRender()).plan.resource.type);
  }

  /**
   * The records of one relationship of the record `find` named, exactly as
   * `include` would give them (the relationship's `params` block, join table,
   * polymorphic type), as a proxy taking every query parameter of the related
   * Resource's index: what `GET {ns}/{type}/{id}/{name}` answers. The record
   * is the one `find` names, through its base scope (or `find`'s own). A to-one
   * relationship reads as one record or null, a to-many one as a page.
   * Guards, the record and the relationship are checked when it is read: an
   * unknown relationship, or one the caller may not read, is a
   * RelationshipNotFound.
   */
  related(name: string, params: QueryParams = {}, options: Pick<ProxyOptions, 'request'> = {}): ResourceProxy {
    const related: RelatedRequest = { parent: this.resourceClass, id: this.idParam('related()'), name, baseScope: this.options.baseScope };
    const create = () => new ResourceProxy(declaredTarget(this.resourceClass, name), params, { request: options.request, related });
    return this.capturedContext ? withContext(this.capturedContext, create) : create();
  }

  /**
   * A related proxy's records as the relationship's linkage (identifiers, or
   * null), with `self` and `related` links and pagination links: what
   * `GET {ns}/{type}/{id}/relationships/{name}` answers. `include`, `fields`
   * and `extra_fields` are a 400 there: there are no resource objects.
   */
  async toLinkage(): Promise<LinkageDocument> {
    if (!this.options.related) throw new Error('toLinkage() renders a proxy from related()');
    assertLinkageParams(this.params);
    const loaded = await this.loadForRender();
    return renderLinkage(loaded.records, loaded.single, this.linkageLinks(loaded), loaded.stats);
  }

  /** The 422 error objects of the last `update`, `destroy` or relationship write. */
  errors: JsonApiErrorObject[] = [];
  private lastWrite?: WriteProxy;

  /** Updates the record `find` named from a JSON:API payload; false (with `errors`) when invalid. */
  async update(payload: WritePayload, options: WriteOptions = {}): Promise<boolean> {
    return this.write(new WriteProxy(this.resourceClass, payload, { action: 'update', id: this.idParam(), ifMatch: options.ifMatch, ifNoneMatch: options.ifNoneMatch }, this.params));
  }

  /** Destroys the record `find` named. */
  async destroy(options: WriteOptions = {}): Promise<boolean> {
    return this.write(new WriteProxy(this.resourceClass, undefined, { action: 'destroy', id: this.idParam(), ifMatch: options.ifMatch, ifNoneMatch: options.ifNoneMatch }, this.params));
  }

  /**
   * The version of the record `find` named (what its ETag carries, and what
   * `update`, `destroy` and relationship writes take as `ifMatch`), read with
   * the record; undefined when its Resource declares no version.
   */
  async version(): Promise<string | undefined> {
    this.idParam('version()');
    const [loaded] = (await this.loadForRender()).records;
    return loaded ? versionOf(loaded.resource, loaded.record as object) : undefined;
  }

  /**
   * `PATCH …/relationships/{name}`: `{ data: [identifiers] }` replaces every
   * member of a to-many relationship; `{ data: identifier | null }` sets a
   * to-one one. False (with `errors`) when a record is invalid or a guard refuses.
   */
  replaceRelationship(name: string, linkage: RelationshipPayload, options: WriteOptions = {}): Promise<boolean> {
    return this.writeRelationship(name, options, 'replace', linkage);
  }

  /** `POST …/relationships/{name}`: adds the identified records to a to-many relationship. */
  addToRelationship(name: string, linkage: RelationshipPayload, options: WriteOptions = {}): Promise<boolean> {
    return this.writeRelationship(name, options, 'add', linkage);
  }

  /** `DELETE …/relationships/{name}`: takes the identified records out of a to-many relationship. */
  removeFromRelationship(name: string, linkage: RelationshipPayload, options: WriteOptions = {}): Promise<boolean> {
    return this.writeRelationship(name, options, 'remove', linkage);
  }

  private writeRelationship(name: string, options: WriteOptions, operation: RelationshipOperation, linkage: RelationshipPayload): Promise<boolean> {
    return this.write(new RelationshipWrite(this.resourceClass, this.idParam(), name, operation, linkage, { ifMatch: options.ifMatch, ifNoneMatch: options.ifNoneMatch }));
  }

  /** The document of the last `update`. */
  async toWrittenJsonapi(): Promise<JsonApiDocument> {
    if (!this.lastWrite) throw new Error('update() or destroy() first');
    return this.lastWrite.toJsonapi();
  }

  private async write(proxy: WriteProxy | RelationshipWrite): Promise<boolean> {
    const saved = await this.run(() => proxy.save());
    this.errors = proxy.errors;
    this.lastWrite = proxy instanceof WriteProxy ? proxy : undefined;
    this.loading = undefined;
    this.rendering = undefined;
    return saved;
  }

  private idParam(method = 'update() and destroy()'): string {
    const id = (this.params as { id?: unknown }).id;
    if (!this.single || this.options.related || id === undefined) throw new Error(`${method} need a proxy from find({ id })`);
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
    prepareResources();
    const related = this.options.related;
    if (!related) return runQuery(this.ownSource(), renderOnly, this.options.request);
    const target = await resolveRelated(related, this.params, this.options.request?.path);
    const source: QuerySource = {
      resource: target.resource, params: target.params, baseScope: target.baseScope, shape: target.toOne ? 'one' : 'many',
      empty: target.baseScope === undefined, pick: target.pick, maxPicked: related.parent.maxIncludedRecords,
      enforceRequired: false, baseUrl: related.parent.baseUrl ?? '',
    };
    return { ...(await runQuery(source, renderOnly, this.options.request)), target };
  }

  private ownSource(): QuerySource {
    const resourceClass = this.resourceClass;
    this.validateEndpoint();
    // before any query, so a refusal says nothing about whether the record exists;
    // a polymorphic parent reads its children's records, so each must allow it
    assertAllowed(servedResources(resourceClass), this.single ? 'show' : 'index', resourceClass.type);
    const id = this.single ? (this.params as { id?: unknown }).id : undefined;
    return {
      resource: resourceClass, params: this.params, baseScope: this.options.baseScope, id,
      shape: this.single ? 'one' : 'many', mustExist: this.single, baseUrl: resourceClass.baseUrl ?? '',
    };
  }

  /** `self` is the relationship endpoint (the page requested, when paginated), `related` the related one. */
  private linkageLinks(loaded: Loaded): LinkageLinks | undefined {
    const request = this.options.request;
    const { parent } = loaded.target!;
    if (!request) return relationshipUrls(parent.resource, String((parent.record as { id?: unknown }).id), loaded.target!.relationship.name);
    const base = this.options.related!.parent.baseUrl ?? '';
    const related = base + request.path.replace(/\/relationships\/([^/]+)\/?$/, '/$1');
    return { ...loaded.links, self: loaded.links?.self ?? base + request.path, related };
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
 * The Resource a relationship names, from configuration alone, for a related
 * proxy's `resourceClass` (the parent's own when it cannot tell: an unknown
 * name or a polymorphic belongs_to, whose Resource depends on the record).
 */
function declaredTarget(parent: typeof ResourceBase, name: string): typeof ResourceBase {
  const relationship = findRelationship(variantsOf(parent), name);
  if (!relationship || relationship.kind === 'polymorphic_belongs_to') return parent;
  try {
    return relatedResource(relationship);
  } catch {
    return parent; // reported when the proxy is read
  }
}
