import { equalityClause, type Adapter, type AdapterClass, type ResolveOptions } from '../adapter/adapter.ts';
import { context as currentContext, type MuralContext } from '../context.ts';
import { ResourceConfigurationError } from '../errors/index.ts';
import type { QueryParams } from '../query/query-params.ts';
import { ResourceProxy, type ProxyOptions } from '../proxy/resource-proxy.ts';
import { WriteProxy } from '../write/write-proxy.ts';
import type { AttributeBlock, AttributeOptions } from './attribute.ts';
import { declareAttribute, declareFilter, declareSort, declareStat, type StatCalculations } from './declare.ts';
import type { OperatorFunction, FilterOptions } from './filter-definition.ts';
import { typeFromClassName } from './naming.ts';
import { polymorphicParentOf } from './polymorphism.ts';
import { bumpRevision } from './revision.ts';
import { declareResourceGuard, type ResourceGuardOptions } from './resource-guard.ts';
import type { Guard } from './guard.ts';
import { currentTransaction } from '../write/transaction-context.ts';
import { hookDefinition, type HookHandler, type HookName, type HookOptions } from '../write/hook-definition.ts';
import {
  configOf,
  ALL_ACTIONS,
  type Action,
  type Endpoint,
  type ExtraAttributeHook,
  type PaginateFunction,
  type ResourceConfig,
  type ResourceSettings,
} from './resource-config.ts';
import type { SortFunction, SortOptions } from './sort-definition.ts';
import { declarePolymorphicBelongsTo, declareRelationship, type OnGroup } from '../relationships/declare-relationship.ts';
import type { PolymorphicBelongsToOptions, RelationshipOptions } from '../relationships/relationship-definition.ts';

const adapters = new WeakMap<object, Adapter>();

/**
 * The base class of every Resource. Configuration is declared in a subclass's
 * static block and recorded as data (see resource-config.ts); an instance is
 * made per query, so guards and scopes can read the request's `context`.
 */
export class Resource {
  declare static model: unknown;
  declare static description: string | undefined;
  declare static adapter: AdapterClass | undefined;
  declare static baseUrl: string | undefined;
  declare static endpointNamespace: string | undefined;
  declare static defaultSort: ResourceSettings['defaultSort'];
  declare static defaultPageSize: number;
  declare static maxPageSize: number;
  declare static maxIncludeDepth: number;
  declare static maxIncludes: number;
  declare static maxIncludedRecords: number;
  declare static maxFilterValues: number;
  declare static validateEndpoints: boolean;
  declare static autolink: boolean;
  declare static paginationLinks: boolean;
  declare static filtersAcceptNilByDefault: boolean;
  declare static polymorphic: ResourceSettings['polymorphic'];
  declare static attributesReadableByDefault: ResourceSettings['attributesReadableByDefault'];
  declare static attributesWritableByDefault: ResourceSettings['attributesWritableByDefault'];
  declare static attributesSortableByDefault: ResourceSettings['attributesSortableByDefault'];
  declare static attributesFilterableByDefault: ResourceSettings['attributesFilterableByDefault'];
  declare static attributesSchemaByDefault: boolean;

  static {
    this.attribute('id', 'integer_id', { writable: false });
    this.stat({ total: ['count'] });
  }

  /** The recorded configuration; stages read it, the DSL writes it. */
  static get config(): ResourceConfig {
    return configOf(this);
  }

  /** The JSON:API type; inferred from the class name when not set. */
  static get type(): string {
    return configOf(this).type ?? inferredType(this);
  }
  static set type(value: string) {
    configOf(this).type = value;
  }

  /** True for shared base Resources that serve no model of their own. Not inherited. */
  static get abstractClass(): boolean {
    return configOf(this).abstractClass;
  }
  static set abstractClass(value: boolean) {
    configOf(this).abstractClass = value;
  }

  static attribute(name: string, type: string, options?: AttributeOptions | AttributeBlock, block?: AttributeBlock): void {
    const [opts, fn] = typeof options === 'function' ? [{}, options] : [options ?? {}, block];
    declareAttribute(configOf(this), this.name, name, type, opts, fn, false);
  }

  /** A read-only attribute rendered only when requested through `extra_fields`. */
  static extraAttribute(name: string, type: string, options?: AttributeOptions | AttributeBlock, block?: AttributeBlock): void {
    const [opts, fn] = typeof options === 'function' ? [{}, options] : [options ?? {}, block];
    declareAttribute(configOf(this), this.name, name, type, opts, fn, true);
  }

  /** Adjusts the scope (to eager-load, say) only when the extra attribute is requested. */
  static onExtraAttribute(name: string, hook: ExtraAttributeHook): void {
    const hooks = configOf(this).extraAttributeHooks;
    hooks.set(name, [...(hooks.get(name) ?? []), hook]);
  }

  static filter(name: string, type?: string | FilterOptions | Record<string, OperatorFunction>, ...rest: Array<FilterOptions | Record<string, OperatorFunction>>): void {
    declareFilter(configOf(this), this.name, name, [type, ...rest]);
  }

  static sort(name: string, ...args: Array<string | SortOptions | SortFunction>): void {
    declareSort(configOf(this), this.name, name, args);
  }

  /** `stat({ age: ['average', 'maximum'] })` or `stat('age', { median: (scope, attr) => … })`. */
  static stat(definitions: Record<string, StatCalculations> | string, calculations?: StatCalculations): void {
    if (typeof definitions === 'string') {
      declareStat(configOf(this), this.name, definitions, calculations ?? []);
      return;
    }
    for (const [name, calcs] of Object.entries(definitions)) declareStat(configOf(this), this.name, name, calcs);
  }

  /** Replaces the adapter's pagination: receives the scope, the page number and the page size. */
  static paginate(fn: PaginateFunction): void {
    configOf(this).paginate = fn;
  }

  /** Children whose `<parent>_id` (or `foreignKey`) points at this record. */
  static hasMany(name: string, options: RelationshipOptions = {}): void {
    declareRelationship(configOf(this), this, 'has_many', name, options);
  }

  /** As hasMany, but one child is assigned. */
  static hasOne(name: string, options: RelationshipOptions = {}): void {
    declareRelationship(configOf(this), this, 'has_one', name, options);
  }

  /** The record this one's `<name>_id` (or `foreignKey`) points at. */
  static belongsTo(name: string, options: RelationshipOptions = {}): void {
    declareRelationship(configOf(this), this, 'belongs_to', name, options);
  }

  /** Records linked through a join table: `foreignKey: { employee_teams: 'employee_id' }`. */
  static manyToMany(name: string, options: RelationshipOptions): void {
    declareRelationship(configOf(this), this, 'many_to_many', name, options);
  }

  /** Children pointing here through `<as>_id` and `<as>_type`. */
  static polymorphicHasMany(name: string, options: RelationshipOptions & { as: string }): void {
    declareRelationship(configOf(this), this, 'polymorphic_has_many', name, options);
  }

  /**
   * A belongs_to whose target type is read from a column (`groupBy`, default
   * `<name>_type`); each value is declared with `on(value, { resource })`.
   */
  static polymorphicBelongsTo(name: string, options: PolymorphicBelongsToOptions, groups: (on: OnGroup) => void): void {
    declarePolymorphicBelongsTo(configOf(this), this, name, options, groups);
  }

  /** For a polymorphic parent: the column whose value is each record's child type (default `type`). */
  static get polymorphicColumn(): string {
    return configOf(this).polymorphicColumn ?? 'type';
  }
  static set polymorphicColumn(value: string) {
    configOf(this).polymorphicColumn = value;
  }

  static beforeAttributes(handler: HookHandler, options?: HookOptions): void { addHook(this, 'beforeAttributes', handler, options); }
  static afterAttributes(handler: HookHandler, options?: HookOptions): void { addHook(this, 'afterAttributes', handler, options); }
  static aroundAttributes(method: string, options?: HookOptions): void { addHook(this, 'aroundAttributes', method, options); }
  static beforeSave(handler: HookHandler, options?: HookOptions): void { addHook(this, 'beforeSave', handler, options); }
  static afterSave(handler: HookHandler, options?: HookOptions): void { addHook(this, 'afterSave', handler, options); }
  static aroundSave(method: string, options?: HookOptions): void { addHook(this, 'aroundSave', method, options); }
  static aroundPersistence(method: string, options?: HookOptions): void { addHook(this, 'aroundPersistence', method, options); }
  static beforeCommit(handler: HookHandler, options?: HookOptions): void { addHook(this, 'beforeCommit', handler, options); }
  static beforeDestroy(handler: HookHandler, options?: HookOptions): void { addHook(this, 'beforeDestroy', handler, options); }
  static afterDestroy(handler: HookHandler, options?: HookOptions): void { addHook(this, 'afterDestroy', handler, options); }

  /**
   * Guards the Resource itself: every action (or those in `only`, or all but
   * `except`) needs the guard's consent, wherever the Resource's records would
   * be read or written — its endpoints, in-process queries and writes, and
   * every relationship leading to it. A guard takes no arguments and reads
   * `this.context`; several guards must all agree.
   */
  static guard(guard: Guard, options?: ResourceGuardOptions): void {
    declareResourceGuard(this, guard, options);
  }

  static primaryEndpoint(path: string, actions: readonly Action[] = ALL_ACTIONS): void {
    configOf(this).primaryEndpoint = { path: normalizePath(path), actions: [...actions] };
  }

  static secondaryEndpoint(path: string, actions: readonly Action[] = ALL_ACTIONS): void {
    configOf(this).secondaryEndpoints.push({ path: normalizePath(path), actions: [...actions] });
  }

  /** Where the Resource is served: its primary endpoint, `/<type>` with every action by default. */
  static get endpoint(): Endpoint {
    return configOf(this).primaryEndpoint ?? { path: `/${this.type}`, actions: ALL_ACTIONS };
  }

  /** Every endpoint, primary first, each path prefixed with the namespace. */
  static get endpoints(): Endpoint[] {
    const ns = this.endpointNamespace ?? '';
    return [this.endpoint, ...configOf(this).secondaryEndpoints].map((e) => ({ ...e, path: ns + e.path }));
  }

  /** A lazy query over many records. */
  static all<T extends typeof Resource>(this: T, params: QueryParams = {}, baseScope?: unknown, options: ProxyOptions = {}): ResourceProxy {
    return new ResourceProxy(this, params, { ...options, baseScope, single: false });
  }

  /** A lazy query for one record; reading it raises RecordNotFound when absent. */
  static find<T extends typeof Resource>(this: T, params: QueryParams & { id: string | number }, baseScope?: unknown, options: ProxyOptions = {}): ResourceProxy {
    return new ResourceProxy(this, params, { ...options, baseScope, single: true });
  }

  /** A pending create from a JSON:API payload (sideposting included); `save()` it. */
  static build<T extends typeof Resource>(this: T, payload: unknown, params: QueryParams = {}): WriteProxy {
    return new WriteProxy(this, payload, { action: 'create' }, params);
  }

  static adapterInstance(): Adapter {
    let adapter = adapters.get(this);
    if (!adapter) {
      const AdapterClass = this.adapter;
      if (!AdapterClass) throw new ResourceConfigurationError(`${this.name} has no adapter; set this.adapter`);
      adapter = new AdapterClass(this);
      adapters.set(this, adapter);
    }
    return adapter;
  }

  get resourceClass(): typeof Resource {
    return this.constructor as typeof Resource;
  }

  /** The context of the request this instance serves. */
  get context(): MuralContext | undefined {
    return currentContext();
  }

  get adapter(): Adapter {
    return this.resourceClass.adapterInstance();
  }

  /** The starting point of every query; override to narrow what the Resource serves. */
  baseScope(): unknown {
    const resourceClass = this.resourceClass;
    if (resourceClass.model === undefined) {
      throw new ResourceConfigurationError(`${resourceClass.name} has no model; set this.model or override baseScope()`);
    }
    const scope = this.adapter.baseScope(resourceClass.model);
    const parent = polymorphicParentOf(resourceClass);
    if (!parent || parent.model !== resourceClass.model) return scope;
    // a child sharing its parent's table (single-table inheritance) serves only its own rows
    return this.adapter.filter(scope, equalityClause(parent.polymorphicColumn, [resourceClass.type], 'string'));
  }

  /** Runs the composed query; must return the records. */
  resolve(scope: unknown, options?: ResolveOptions): Promise<unknown[]> {
    return this.adapter.resolve(scope, options);
  }

  /** Persistence step 1 of a create: a new, unsaved model. */
  build(model: unknown): object | Promise<object> {
    const record = this.adapter.build(model) as object;
    const parent = polymorphicParentOf(this.resourceClass);
    // a single-table child stamps its type on the rows it creates
    if (parent && parent.model === this.resourceClass.model) this.adapter.assign(record, { [parent.polymorphicColumn]: this.resourceClass.type });
    return record;
  }

  /** Persistence step 2: copy the written attributes onto the model. */
  assignAttributes(model: object, attributes: Record<string, unknown>): void | Promise<void> {
    this.adapter.assign(model, attributes);
  }

  /** Persistence step 3: save the model inside the write's transaction. */
  async save(model: object): Promise<void> {
    await this.adapter.save(model, currentTransaction());
  }

  /** Destroys the model inside the write's transaction. */
  async delete(model: object): Promise<void> {
    await this.adapter.destroy(model, currentTransaction());
  }
}

const inferredTypes = new WeakMap<object, string>();

function inferredType(resourceClass: typeof Resource): string {
  let type = inferredTypes.get(resourceClass);
  if (type === undefined) inferredTypes.set(resourceClass, (type = typeFromClassName(resourceClass.name)));
  return type;
}

function addHook(resourceClass: object, hook: HookName, handler: HookHandler, options?: HookOptions): void {
  configOf(resourceClass).hooks.push(hookDefinition(hook, handler, options));
}

function normalizePath(path: string): string {
  return path.startsWith('/') ? path : `/${path}`;
}

const SETTING_NAMES = [
  'model', 'description', 'adapter', 'baseUrl', 'endpointNamespace', 'defaultSort', 'defaultPageSize', 'maxPageSize',
  'maxIncludeDepth', 'maxIncludes', 'maxIncludedRecords', 'maxFilterValues', 'validateEndpoints', 'autolink', 'paginationLinks', 'filtersAcceptNilByDefault', 'polymorphic',
  'attributesReadableByDefault', 'attributesWritableByDefault', 'attributesSortableByDefault',
  'attributesFilterableByDefault', 'attributesSchemaByDefault',
] as const satisfies ReadonlyArray<keyof ResourceSettings>;

// Settings are accessors on the base class so that `this.x = …` in a
// subclass's static block writes that subclass's config, not a shared field.
for (const name of SETTING_NAMES) {
  Object.defineProperty(Resource, name, {
    configurable: true,
    get(this: typeof Resource) {
      return configOf(this).settings[name];
    },
    set(this: typeof Resource, value: unknown) {
      bumpRevision();
      (configOf(this).settings as unknown as Record<string, unknown>)[name] = value;
    },
  });
}
