import { equalityClause, type Adapter, type AdapterClass, type ResolveOptions } from '../adapter/adapter.ts';
import { observedAdapter } from '../diagnostics/observed-adapter.ts';
import { context as currentContext, type MuralContext } from '../context.ts';
import { ResourceConfigurationError } from '../errors/index.ts';
import type { AttributeBlock, AttributeOptions } from './attribute.ts';
import { declareAttribute, declareFilter, declareSort, declareStat, type StatCalculations } from './declare.ts';
import type { FilterOperators, FilterOptions } from './filter-definition.ts';
import { typeFromClassName } from './naming.ts';
import { polymorphicParentOf } from './polymorphism.ts';
import { bumpRevision } from './revision.ts';
import { declaredAt } from './declaration-sites.ts';
import { defineSettingAccessors } from './setting-accessors.ts';
import { declareResourceGuard, type ResourceGuardOptions } from './resource-guard.ts';
import { declareRowRule, type RowRule, type RuleAction } from '../resource/row-rule.ts';
import { declareSoftDelete, TRASHED_FILTER, type SoftDeleteOptions } from './soft-delete.ts';
import type { MethodName, PlainGuard } from './guard.ts';
import type { ModelOf } from './model-of.ts';
import type { TypeName } from '../types/type-names.ts';
import { ALL_ACTIONS, type Action } from './action.ts';
import { currentTransaction } from '../transaction.ts';
import { hookDefinition, type AttributesHook, type HookHandler, type HookName, type HookOptions, type ModelHook } from './hook-definition.ts';
import {
  configOf,
  type Endpoint,
  type ExtraAttributeHook,
  type PaginateFunction,
  type ResourceConfig,
  type ResourceSettings,
} from './resource-config.ts';
import type { SortFunction, SortOptions } from './sort-definition.ts';
import { declarePolymorphicBelongsTo, declareRelationship, type OnGroup } from './declare-relationship.ts';
import type { ManyToManyOptions, PolymorphicBelongsToOptions, RelationshipOptions } from './relationship-definition.ts';

const adapters = new WeakMap<object, Adapter>();

/** The `this` of a declaration: any Resource class, abstract ones included. */
type ResourceClass = abstract new () => ResourceBase;

/**
 * What every Resource is, short of the ways into the engines. Configuration is
 * declared in a subclass's static block and recorded as data (see
 * resource-config.ts); an instance is made per query, so guards and scopes can
 * read the request's `context`. Applications extend `Resource`
 * (core/proxy/resource.ts), which adds `all`, `find` and `build`: kept there,
 * the declarations never depend on the engines that read them.
 */
export class ResourceBase {
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
  declare static relationshipLinks: ResourceSettings['relationshipLinks'];
  declare static paginationLinks: boolean;
  declare static filtersAcceptNilByDefault: boolean;
  /**
   * The child Resources of a polymorphic parent: class names, types, or thunks returning the
   * classes.
   */
  declare static polymorphic: ResourceSettings['polymorphic'];
  declare static attributesReadableByDefault: ResourceSettings['attributesReadableByDefault'];
  declare static attributesWritableByDefault: ResourceSettings['attributesWritableByDefault'];
  declare static attributesSortableByDefault: ResourceSettings['attributesSortableByDefault'];
  declare static attributesFilterableByDefault: ResourceSettings['attributesFilterableByDefault'];
  declare static attributesSchemaByDefault: boolean;
  declare static versionAttribute: ResourceSettings['versionAttribute'];
  declare static cacheControl: string | undefined;
  declare static clientGeneratedIds: ResourceSettings['clientGeneratedIds'];

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
    declaredAt(this, 'type');
    configOf(this).type = value;
  }

  /** True for shared base Resources that serve no model of their own. Not inherited. */
  static get abstractClass(): boolean {
    return configOf(this).abstractClass;
  }
  static set abstractClass(value: boolean) {
    declaredAt(this, 'abstractClass');
    configOf(this).abstractClass = value;
  }

  /**
   * `attribute(name, type, options?, block?)`. Blocks and guards get the
   * model as `ModelOf<this>` (see model-of.ts) or as their parameter is annotated.
   */
  static attribute<R extends ResourceClass, M = ModelOf<R>>(
    this: R,
    name: string,
    type: TypeName,
    options?: AttributeOptions<InstanceType<R>, M> | AttributeBlock<M, InstanceType<R>>,
    block?: AttributeBlock<M, InstanceType<R>>,
  ): void {
    const [opts, fn] = typeof options === 'function' ? [{}, options] : [options ?? {}, block];
    declaredAt(this, `attribute:${name}`);
    // recorded as the untyped forms every stage reads (the Resource and model types are the caller's)
    declareAttribute(configOf(this), this.name, name, type, opts as unknown as AttributeOptions, fn as AttributeBlock | undefined, false);
  }

  /** A read-only attribute rendered only when requested through `extra_fields`. */
  static extraAttribute<R extends ResourceClass, M = ModelOf<R>>(
    this: R,
    name: string,
    type: TypeName,
    options?: AttributeOptions<InstanceType<R>, M> | AttributeBlock<M, InstanceType<R>>,
    block?: AttributeBlock<M, InstanceType<R>>,
  ): void {
    const [opts, fn] = typeof options === 'function' ? [{}, options] : [options ?? {}, block];
    declaredAt(this, `attribute:${name}`);
    declareAttribute(configOf(this), this.name, name, type, opts as unknown as AttributeOptions, fn as AttributeBlock | undefined, true);
  }

  /** Adjusts the scope (to eager-load, say) only when the extra attribute is requested. */
  static onExtraAttribute<R extends ResourceClass, S = unknown>(this: R, name: string, hook: ExtraAttributeHook<S, InstanceType<R>, S>): void {
    const hooks = configOf(this).extraAttributeHooks;
    hooks.set(name, [...(hooks.get(name) ?? []), hook as ExtraAttributeHook]);
  }

  // the most common form last: a call matching no form is reported against it
  /**
   * `filter(name, type?, options?, operators?)`: the type only for a filter-only
   * attribute; custom operators get the scope `S` and the coerced value `V`
   * and return the narrowed scope.
   */
  static filter<R extends ResourceClass, S = unknown, V = unknown>(this: R, name: string, operators: FilterOperators<S, V, InstanceType<R>>): void;
  static filter<R extends ResourceClass, S = unknown, V = unknown>(
    this: R, name: string, options?: FilterOptions<InstanceType<R>>, operators?: FilterOperators<S, V, InstanceType<R>>,
  ): void;
  static filter<R extends ResourceClass, S = unknown, V = unknown>(this: R, name: string, type: TypeName, operators: FilterOperators<S, V, InstanceType<R>>): void;
  static filter<R extends ResourceClass, S = unknown, V = unknown>(
    this: R, name: string, type: TypeName, options?: FilterOptions<InstanceType<R>>, operators?: FilterOperators<S, V, InstanceType<R>>,
  ): void;
  static filter(name: string, ...args: unknown[]): void {
    declaredAt(this, `filter:${name}`);
    declareFilter(configOf(this), this.name, name, args);
  }

  /** `sort(name, type?, options?, block?)`: the type only for a sort-only attribute; a block orders the scope `S` itself. */
  static sort<R extends ResourceClass, S = unknown>(this: R, name: string, block: SortFunction<S, InstanceType<R>, S>): void;
  static sort<R extends ResourceClass, S = unknown>(this: R, name: string, options?: SortOptions, block?: SortFunction<S, InstanceType<R>, S>): void;
  static sort<R extends ResourceClass, S = unknown>(this: R, name: string, type: TypeName, block: SortFunction<S, InstanceType<R>, S>): void;
  static sort<R extends ResourceClass, S = unknown>(this: R, name: string, type: TypeName, options?: SortOptions, block?: SortFunction<S, InstanceType<R>, S>): void;
  static sort(name: string, ...args: unknown[]): void {
    declaredAt(this, `sort:${name}`);
    declareSort(configOf(this), this.name, name, args);
  }

  /** `stat({ age: ['average', 'maximum'] })` or `stat('age', { median: (scope, attr) => … })`. */
  static stat<R extends ResourceClass, S = unknown>(this: R, definitions: Readonly<Record<string, StatCalculations<S, InstanceType<R>>>>): void;
  static stat<R extends ResourceClass, S = unknown>(this: R, name: string, calculations: StatCalculations<S, InstanceType<R>>): void;
  static stat(definitions: Readonly<Record<string, StatCalculations>> | string, calculations?: StatCalculations): void {
    if (typeof definitions === 'string') {
      declaredAt(this, `stat:${definitions}`);
      declareStat(configOf(this), this.name, definitions, calculations ?? []);
      return;
    }
    for (const [name, calcs] of Object.entries(definitions)) {
      declaredAt(this, `stat:${name}`);
      declareStat(configOf(this), this.name, name, calcs);
    }
  }

  /** Replaces the adapter's pagination: receives the scope, the page number and the page size. */
  static paginate<R extends ResourceClass, S = unknown>(this: R, fn: PaginateFunction<S, InstanceType<R>, S>): void {
    configOf(this).paginate = fn as PaginateFunction;
  }

  /** Children whose `<parent>_id` (or `foreignKey`) points at this record. */
  static hasMany<R extends ResourceClass, M = ModelOf<R>, C = unknown>(this: R, name: string, options: RelationshipOptions<InstanceType<R>, M, C> = {}): void {
    declaredAt(this, `relationship:${name}`);
    declareRelationship(configOf(this), this, 'has_many', name, options as RelationshipOptions);
  }

  /** As hasMany, but one child is assigned. */
  static hasOne<R extends ResourceClass, M = ModelOf<R>, C = unknown>(this: R, name: string, options: RelationshipOptions<InstanceType<R>, M, C> = {}): void {
    declaredAt(this, `relationship:${name}`);
    declareRelationship(configOf(this), this, 'has_one', name, options as RelationshipOptions);
  }

  /** The record this one's `<name>_id` (or `foreignKey`) points at. */
  static belongsTo<R extends ResourceClass, M = ModelOf<R>, C = unknown>(this: R, name: string, options: RelationshipOptions<InstanceType<R>, M, C> = {}): void {
    declaredAt(this, `relationship:${name}`);
    declareRelationship(configOf(this), this, 'belongs_to', name, options as RelationshipOptions);
  }

  /** Records linked through a join table: `foreignKey: { employee_teams: 'employee_id' }`. */
  static manyToMany<R extends ResourceClass, M = ModelOf<R>, C = unknown>(
    this: R, name: string, options: ManyToManyOptions<InstanceType<R>, M, C>,
  ): void {
    declaredAt(this, `relationship:${name}`);
    declareRelationship(configOf(this), this, 'many_to_many', name, options as ManyToManyOptions);
  }

  /** Children pointing here through `<as>_id` and `<as>_type`. */
  static polymorphicHasMany<R extends ResourceClass, M = ModelOf<R>, C = unknown>(
    this: R, name: string, options: RelationshipOptions<InstanceType<R>, M, C> & { as: string },
  ): void {
    declaredAt(this, `relationship:${name}`);
    declareRelationship(configOf(this), this, 'polymorphic_has_many', name, options as RelationshipOptions);
  }

  /**
   * A belongs_to whose target type is read from a column (`groupBy`, default
   * `<name>_type`); each value is declared with `on(value, { resource })`.
   */
  static polymorphicBelongsTo<R extends ResourceClass, M = ModelOf<R>, C = unknown>(
    this: R, name: string, options: PolymorphicBelongsToOptions<InstanceType<R>, M, C>, groups: (on: OnGroup) => void,
  ): void {
    declaredAt(this, `relationship:${name}`);
    declarePolymorphicBelongsTo(configOf(this), this, name, options as PolymorphicBelongsToOptions, groups);
  }

  /** For a polymorphic parent: the column whose value is each record's child type (default `type`). */
  static get polymorphicColumn(): string {
    return configOf(this).polymorphicColumn ?? 'type';
  }
  static set polymorphicColumn(value: string) {
    configOf(this).polymorphicColumn = value;
  }

  // Blocks get the Resource as `this`; `around*` hooks name a method, which receives a `proceed` function last.
  /**
   * Runs `handler(attributes)` before a write assigns the attributes to the model; it may
   * change them.
   */
  static beforeAttributes<R extends ResourceClass>(this: R, handler: AttributesHook<InstanceType<R>>, options?: HookOptions): void {
    addHook(this, 'beforeAttributes', handler, options);
  }
  /** Runs `handler(model)` once a write has assigned the attributes, before the save. */
  static afterAttributes<R extends ResourceClass, M = ModelOf<R>>(this: R, handler: ModelHook<InstanceType<R>, M>, options?: HookOptions): void {
    addHook(this, 'afterAttributes', handler, options);
  }
  /**
   * Names a method that wraps the assignment: it receives the attributes and a `proceed`
   * function, which it must call.
   */
  static aroundAttributes<R extends ResourceClass>(this: R, method: MethodName<InstanceType<R>>, options?: HookOptions): void {
    addHook(this, 'aroundAttributes', method, options);
  }
  /**
   * Runs `handler(model)` before each record is validated and saved (`{ only: ['create'] }` to
   * limit it).
   */
  static beforeSave<R extends ResourceClass, M = ModelOf<R>>(this: R, handler: ModelHook<InstanceType<R>, M>, options?: HookOptions): void {
    addHook(this, 'beforeSave', handler, options);
  }
  /** Runs `handler(model)` after each record is saved, inside the write's transaction. */
  static afterSave<R extends ResourceClass, M = ModelOf<R>>(this: R, handler: ModelHook<InstanceType<R>, M>, options?: HookOptions): void {
    addHook(this, 'afterSave', handler, options);
  }
  /**
   * Names a method that wraps each save: it receives the model and a `proceed` function, which
   * it must call.
   */
  static aroundSave<R extends ResourceClass>(this: R, method: MethodName<InstanceType<R>>, options?: HookOptions): void {
    addHook(this, 'aroundSave', method, options);
  }
  /**
   * Names a method that wraps the whole persistence of a record (build or find, assignment,
   * save): it receives the attributes and a `proceed` function.
   */
  static aroundPersistence<R extends ResourceClass>(this: R, method: MethodName<InstanceType<R>>, options?: HookOptions): void {
    addHook(this, 'aroundPersistence', method, options);
  }
  /**
   * Runs `handler(model)` once every record of the write is processed and valid, inside the
   * transaction, just before it commits; throwing rolls everything back.
   */
  static beforeCommit<R extends ResourceClass, M = ModelOf<R>>(this: R, handler: ModelHook<InstanceType<R>, M>, options?: HookOptions): void {
    addHook(this, 'beforeCommit', handler, options);
  }
  /** Runs `handler(model)` before a record is destroyed. */
  static beforeDestroy<R extends ResourceClass, M = ModelOf<R>>(this: R, handler: ModelHook<InstanceType<R>, M>, options?: HookOptions): void {
    addHook(this, 'beforeDestroy', handler, options);
  }
  /** Runs `handler(model)` after a record is destroyed, inside the transaction. */
  static afterDestroy<R extends ResourceClass, M = ModelOf<R>>(this: R, handler: ModelHook<InstanceType<R>, M>, options?: HookOptions): void {
    addHook(this, 'afterDestroy', handler, options);
  }

  /**
   * Guards the Resource itself: every action (or those in `only`, or all but
   * `except`) needs the guard's consent, wherever the Resource's records would
   * be read or written — its endpoints, in-process queries and writes, and
   * every relationship leading to it. A guard takes no arguments and reads
   * `this.context`; several guards must all agree.
   */
  static guard<R extends ResourceClass>(this: R, guard: PlainGuard<InstanceType<R>>, options?: ResourceGuardOptions): void {
    declareResourceGuard(configOf(this), this.name, guard, options);
  }

  /**
   * A row rule: which records the caller may `read`, `create`, `update`,
   * `destroy` or `link` into a relationship, as a condition compiled into
   * every query's WHERE (`{ company_id: fromContext('user.companyId') }`),
   * a function of the context returning one, or `{ scope }` for custom SQL.
   * All of an action's rules must hold, a parent Resource's included.
   */
  static allow<R extends ResourceClass, S = unknown, C extends object = MuralContext>(this: R, action: RuleAction, rule: RowRule<S, C>): void {
    declaredAt(this, `allow:${action}:${configOf(this).rules.length}`);
    bumpRevision();
    declareRowRule(configOf(this), this.name, action, rule as RowRule<unknown, never>);
  }

  /**
   * Soft delete: a DELETE marks the record trashed (`column` set to the
   * time) instead of removing it, and every read leaves trashed records out,
   * as if missing, unless a request asks `filter[trashed]=with|only`
   * (guarded by `trashed`). A DELETE with that filter removes a trashed
   * record for good, for those `purge` allows; a PATCH with it setting the
   * column to null restores one.
   */
  static softDelete<R extends ResourceClass>(this: R, column = 'deleted_at', options: SoftDeleteOptions<InstanceType<R>> = {}): void {
    declaredAt(this, 'softDelete');
    bumpRevision();
    const filter = declareSoftDelete(configOf(this), column, options as SoftDeleteOptions<unknown>);
    declareFilter(configOf(this), this.name, TRASHED_FILTER, filter);
  }

  /**
   * Serves the Resource at `path` (below its namespace) instead of `/{type}`, with only
   * `actions`; an action it does not list is not routed.
   */
  static primaryEndpoint(path: string, actions: readonly Action[] = ALL_ACTIONS): void {
    declaredAt(this, 'endpoint');
    configOf(this).primaryEndpoint = { path: normalizePath(path), actions: [...actions] };
  }

  /** Serves the Resource at another `path` too, with `actions` (every action by default). */
  static secondaryEndpoint(path: string, actions: readonly Action[] = ALL_ACTIONS): void {
    declaredAt(this, `endpoint:${normalizePath(path)}`);
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

  /** The adapter instance this Resource queries through, made once from `adapter`. */
  static adapterInstance(): Adapter {
    let adapter = adapters.get(this);
    if (!adapter) {
      const AdapterClass = this.adapter;
      if (!AdapterClass) throw new ResourceConfigurationError(`${this.name} has no adapter; set this.adapter`);
      // timed on the mural:database channel while something listens
      adapter = observedAdapter(new AdapterClass(this), this.type);
      adapters.set(this, adapter);
    }
    return adapter;
  }

  get resourceClass(): typeof ResourceBase {
    return this.constructor as typeof ResourceBase;
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

function inferredType(resourceClass: typeof ResourceBase): string {
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

defineSettingAccessors(ResourceBase);
