import type { JoinTable } from '../../core/index.ts';
import { joinAnnotation, joinCondition, PARENT_IDS } from './join-table.ts';
import { Op, type FindOptions, type Includeable, type Model, type ModelStatic, type OrderItem, type ProjectionAlias, type WhereOptions } from 'sequelize';

interface ScopeState {
  readonly wheres: readonly WhereOptions[];
  readonly orders: readonly OrderItem[];
  readonly limit?: number;
  readonly offset?: number;
  readonly includes: readonly Includeable[];
  readonly attributes?: FindOptions['attributes'];
  /** Computed columns added to whatever attributes are selected. */
  readonly annotations: ReadonlyArray<[unknown, string]>;
  readonly perGroup?: { readonly column: string; readonly limit: number };
  readonly through?: Through;
  readonly options: Readonly<FindOptions>;
}

/** Records linked to given parents through a join table, each carrying the ids of its parents. */
export interface Through {
  readonly join: JoinTable;
  readonly parentIds: readonly unknown[];
}

/**
 * The Sequelize adapter's scope: an immutable query value. Every method
 * returns a new scope, so a base scope can be shared and a custom filter or
 * sort can extend the query with plain Sequelize conditions:
 *
 *   (scope: SequelizeScope, value: string[]) => scope.where({ age: { [Op.gt]: 30 } })
 */
export class SequelizeScope<M extends Model = Model> {
  private constructor(
    readonly model: ModelStatic<M>,
    private readonly state: ScopeState,
  ) {}

  static of<M extends Model>(model: ModelStatic<M>): SequelizeScope<M> {
    return new SequelizeScope(model, { wheres: [], orders: [], includes: [], annotations: [], options: {} });
  }

  /** Adds a condition, ANDed with the others. */
  where(condition: WhereOptions): SequelizeScope<M> {
    return this.with({ wheres: [...this.state.wheres, condition] });
  }

  order(...items: OrderItem[]): SequelizeScope<M> {
    return this.with({ orders: [...this.state.orders, ...items] });
  }

  limit(limit: number | undefined): SequelizeScope<M> {
    return this.with({ limit });
  }

  offset(offset: number | undefined): SequelizeScope<M> {
    return this.with({ offset });
  }

  include(...includes: Includeable[]): SequelizeScope<M> {
    return this.with({ includes: [...this.state.includes, ...includes] });
  }

  attributes(attributes: FindOptions['attributes']): SequelizeScope<M> {
    return this.with({ attributes });
  }

  /** Selects a computed column (a literal) under `alias`, next to the model's attributes. */
  annotate(expression: ProjectionAlias[0], alias: string): SequelizeScope<M> {
    return this.with({ annotations: [...this.state.annotations, [expression, alias]] });
  }

  /** At most `limit` records per value of `column` (see SequelizeAdapter.limitPerGroup). */
  limitPerGroup(column: string, limit: number): SequelizeScope<M> {
    return this.with({ perGroup: { column, limit } });
  }

  /** Whether the scope joins other models (`include`): read without building `findOptions`, which a direct SELECT does not need whole. */
  get joinsModels(): boolean {
    return this.state.includes.length > 0 || this.state.options.include !== undefined;
  }

  /** Whether the scope groups its rows (`group` or `having` among its options). */
  get groupsRows(): boolean {
    return this.state.options.group !== undefined || this.state.options.having !== undefined;
  }

  get perGroup(): ScopeState['perGroup'] {
    return this.state.perGroup;
  }

  /**
   * Only records linked to `parentIds` through `join`, each with the parent
   * ids it is linked to under PARENT_IDS. `findOptions` expresses it as a
   * condition and a correlated subquery; a direct SELECT joins instead.
   */
  linkedThrough(join: JoinTable, parentIds: readonly unknown[]): SequelizeScope<M> {
    return this.with({ through: { join, parentIds } });
  }

  get through(): Through | undefined {
    return this.state.through;
  }

  /** The same scope without its `linkedThrough` link, for a caller that joins by itself. */
  withoutThrough(): SequelizeScope<M> {
    return this.with({ through: undefined });
  }

  /** Any other `findAll` option (`group`, `having`, `paranoid`, …), merged in. */
  options(options: FindOptions): SequelizeScope<M> {
    return this.with({ options: { ...this.state.options, ...options } });
  }

  /** The same conditions without order and pagination, for counts and statistics. */
  unpaginated(): SequelizeScope<M> {
    return this.with({ orders: [], limit: undefined, offset: undefined, perGroup: undefined, annotations: [], through: undefined, wheres: this.conditions() });
  }

  get whereClause(): WhereOptions | undefined {
    const wheres = this.conditions();
    if (wheres.length === 0) return undefined;
    return wheres.length === 1 ? wheres[0] : { [Op.and]: [...wheres] };
  }

  private memo?: FindOptions;

  /** The options handed to `findAll`; computed once (the scope never changes), so frozen: spread it to adjust. */
  get findOptions(): Readonly<FindOptions> {
    this.memo ??= Object.freeze(this.buildFindOptions());
    return this.memo;
  }

  private buildFindOptions(): FindOptions {
    const { orders, limit, offset, includes, attributes, options } = this.state;
    const find: FindOptions = { ...options };
    const where = this.whereClause;
    if (where) find.where = where;
    if (orders.length > 0) find.order = [...orders];
    if (limit !== undefined) find.limit = limit;
    if (offset !== undefined) find.offset = offset;
    if (includes.length > 0) find.include = [...includes];
    if (attributes) find.attributes = attributes;
    const { through } = this.state;
    const annotations = through ? [...this.state.annotations, [joinAnnotation(this.model, through.join, through.parentIds), PARENT_IDS] as [unknown, string]] : this.state.annotations;
    if (annotations.length > 0) find.attributes = withAnnotations(attributes, annotations);
    return find;
  }

  /** The conditions, a `linkedThrough` link among them as a subquery filter. */
  private conditions(): readonly WhereOptions[] {
    const { through, wheres } = this.state;
    return through ? [...wheres, joinCondition(this.model, through.join, through.parentIds)] : wheres;
  }

  private with(changes: Partial<ScopeState>): SequelizeScope<M> {
    return new SequelizeScope(this.model, { ...this.state, ...changes });
  }
}

function withAnnotations(attributes: FindOptions['attributes'], annotations: ReadonlyArray<[unknown, string]>): FindOptions['attributes'] {
  const extra = annotations as Array<[never, string]>;
  if (!attributes) return { include: extra };
  if (Array.isArray(attributes)) return [...attributes, ...extra];
  return { ...attributes, include: [...(attributes.include ?? []), ...extra] };
}
