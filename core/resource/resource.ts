import type { Adapter, AdapterClass } from '../adapter/adapter.ts';
import { context as currentContext, type MuralContext } from '../context.ts';
import { ResourceConfigurationError } from '../errors/index.ts';
import type { QueryParams } from '../query/query-params.ts';
import { ResourceProxy, type ProxyOptions } from '../proxy/resource-proxy.ts';
import type { AttributeBlock, AttributeOptions } from './attribute.ts';
import { declareAttribute, declareFilter, declareSort, declareStat, type StatCalculations } from './declare.ts';
import type { OperatorFunction, FilterOptions } from './filter-definition.ts';
import { typeFromClassName } from './naming.ts';
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
    return configOf(this).type ?? typeFromClassName(this.name);
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
    return this.adapter.baseScope(resourceClass.model);
  }

  /** Runs the composed query; must return the records. */
  resolve(scope: unknown): Promise<unknown[]> {
    return this.adapter.resolve(scope);
  }
}

function normalizePath(path: string): string {
  return path.startsWith('/') ? path : `/${path}`;
}

const SETTING_NAMES = [
  'model', 'description', 'adapter', 'baseUrl', 'endpointNamespace', 'defaultSort', 'defaultPageSize', 'maxPageSize',
  'maxIncludeDepth', 'validateEndpoints', 'autolink', 'paginationLinks', 'filtersAcceptNilByDefault', 'polymorphic',
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
      (configOf(this).settings as unknown as Record<string, unknown>)[name] = value;
    },
  });
}
