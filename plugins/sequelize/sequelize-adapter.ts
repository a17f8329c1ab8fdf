import { OptimisticLockError, Sequelize, Transaction, type Model, type ModelStatic } from 'sequelize';
import type {
  Adapter, AdapterTarget, ConditionTree, ConstraintViolation, ServiceUnavailable, FilterClause, JoinTable, KeysetKey, ModelDescription, RelatedCondition, RelatedSortStep, ResolveOptions,
  RecordSelection, SortDirection, ValidationProblem,
} from '../../core/index.ts';
import { nestable, relatedCondition, relatedOrder } from './related-condition.ts';
import { ConflictError, currentTransaction, ResourceConfigurationError } from '../../core/index.ts';
import { validateRecord, validationProblems } from './persistence.ts';
import { hasLinkRows, linkRows, unlinkAllRows, unlinkRows } from './join-rows.ts';
import { bumpLoadedVersion, bumpVersions } from './record-versions.ts';
import { columnOf, filterCondition } from './filter-condition.ts';
import { treeCondition } from './tree-condition.ts';
import { conditionsSql } from './select-sql.ts';
import { SequelizeScope } from './sequelize-scope.ts';
import { enforceDeadlines } from './database-deadline.ts';
import { findPerGroup } from './grouped-query.ts';
import { canSelectDirectly, countRows, selectRows } from './direct/select.ts';
import { canInsertDirectly, insertDirectly } from './direct/insert.ts';
import { canUpdateDirectly, updateDirectly } from './direct/update.ts';
import { joinCondition, PARENT_IDS } from './join-table.ts';
import { transientFailure } from './transient-failure.ts';
import { constraintViolation } from './constraint-errors.ts';
import { keysetCondition, keysetOrder } from './keyset-condition.ts';
import { sqliteState } from './sqlite/settings.ts';
import { sqliteTransaction } from './sqlite/transaction.ts';
import { describeSequelizeModel } from './model-description.ts';
import { assignNewKey, primaryKeyNamed } from './primary-key.ts';

const AGGREGATES = { sum: 'SUM', average: 'AVG', maximum: 'MAX', minimum: 'MIN' } as const;

/** Serves Resources whose `model` is a Sequelize model. */
export class SequelizeAdapter implements Adapter<SequelizeScope, Model> {
  constructor(private readonly target: AdapterTarget) {
    // before the first query, so reads too get the busy timeout and WAL
    const sequelize = (target.model as ModelStatic<Model> | undefined)?.sequelize;
    if (sequelize?.getDialect() === 'sqlite') sqliteState(sequelize);
  }

  baseScope(model: unknown): SequelizeScope {
    if (typeof model !== 'function' || !('findAll' in model)) {
      throw new ResourceConfigurationError(`${this.target.name}.model is not a Sequelize model`);
    }
    const sequelize = (model as ModelStatic<Model>).sequelize;
    if (sequelize) enforceDeadlines(sequelize);
    return SequelizeScope.of(model as ModelStatic<Model>);
  }

  filter(scope: SequelizeScope, clause: FilterClause): SequelizeScope {
    return scope.where(filterCondition(scope.model, clause));
  }

  order(scope: SequelizeScope, column: string, direction: SortDirection): SequelizeScope {
    return scope.order([columnOf(scope.model, column), direction.toUpperCase()]);
  }

  filterRelated(scope: SequelizeScope, condition: RelatedCondition): SequelizeScope {
    return scope.where(relatedCondition(scope.model, condition));
  }

  filterTree(scope: SequelizeScope, tree: ConditionTree): SequelizeScope {
    return scope.where(treeCondition(scope.model, tree));
  }

  annotateTree(scope: SequelizeScope, tree: ConditionTree, alias: string): SequelizeScope {
    const condition = conditionsSql(scope.model, treeCondition(scope.model, tree));
    return scope.annotate(Sequelize.literal(`CASE WHEN ${condition} THEN 1 ELSE 0 END`), alias);
  }

  nestsScope(scope: SequelizeScope, inner: unknown): boolean {
    return nestable(scope.model, inner);
  }

  orderRelated(scope: SequelizeScope, steps: readonly RelatedSortStep[], column: string, direction: SortDirection): SequelizeScope {
    return relatedOrder(scope, steps, column, direction);
  }

  paginate(scope: SequelizeScope, size: number, number: number): SequelizeScope {
    return scope.limit(size).offset((number - 1) * size);
  }

  keyset(scope: SequelizeScope, keys: readonly KeysetKey[], after: readonly unknown[] | undefined): SequelizeScope {
    const ordered = scope.order(...keysetOrder(scope.model, keys));
    return after === undefined ? ordered : ordered.where(keysetCondition(scope.model, keys, after));
  }

  resolve(scope: SequelizeScope, options: ResolveOptions = {}): Promise<Model[]> {
    // plain rows skip building model instances, most of Sequelize's read cost; joins still need nesting
    const raw = (options.plain ?? false) && !scope.joinsModels;
    if (scope.perGroup) return findPerGroup(scope, raw);
    if (canSelectDirectly(scope)) {
      if (raw) return selectRows(scope, { plain: true });
      // the join a direct SELECT makes lists every parent, where MySQL's GROUP_CONCAT in findOptions truncates at group_concat_max_len
      if (scope.through) return selectRows(scope).then((rows) => scope.model.bulkBuild(rows as never, { raw: true, isNewRecord: false }));
    }
    return scope.model.findAll({ ...scope.findOptions, transaction: tx(), raw });
  }

  limitPerGroup(scope: SequelizeScope, column: string, limit: number): SequelizeScope {
    return scope.limitPerGroup(column, limit);
  }

  filterThrough(scope: SequelizeScope, join: JoinTable, parentIds: readonly unknown[], annotate: boolean): SequelizeScope {
    return annotate ? scope.linkedThrough(join, parentIds) : scope.where(joinCondition(scope.model, join, parentIds));
  }

  /** `FOR UPDATE` on PostgreSQL and MySQL; SQLite has no row locks and needs none, its writes run one at a time. */
  lockForUpdate(scope: SequelizeScope): SequelizeScope {
    return scope.options({ lock: true });
  }

  /** The column of a model declared with `version: true` (or `version: 'name'`). */
  versionAttribute(model: unknown): string | undefined {
    return (model as VersionedModel | undefined)?._versionAttribute || undefined;
  }

  /** The next save writes a new version: the `version` column's, else the `updatedAt` timestamp's. */
  touch(record: Model): void {
    const model = record.constructor as unknown as VersionedModel;
    const attribute = model._versionAttribute || model._timestampAttributes?.updatedAt;
    if (attribute) record.changed(attribute as never, true);
  }

  transaction<T>(fn: (transaction: unknown) => Promise<T>): Promise<T> {
    const sequelize = (this.target.model as ModelStatic<Model>).sequelize!;
    enforceDeadlines(sequelize);
    if (sequelize.getDialect() === 'sqlite') return sqliteTransaction(sequelize, fn);
    return sequelize.transaction((transaction) => fn(transaction));
  }

  /** Only a transaction of this Resource's own Sequelize instance: it runs on that database's connection. */
  joins(transaction: unknown): boolean {
    return transaction instanceof Transaction && (transaction as unknown as { sequelize: Sequelize }).sequelize === (this.target.model as ModelStatic<Model>).sequelize;
  }

  build(model: unknown): Model {
    return (model as ModelStatic<Model>).build();
  }

  find(model: unknown, id: unknown, transaction: unknown): Promise<Model | null> {
    return (model as ModelStatic<Model>).findByPk(id as string, { transaction: transaction as Transaction });
  }

  assign(record: Model, attributes: Record<string, unknown>): void {
    record.set(attributes);
    assignNewKey(record, attributes);
  }

  validate(record: Model, skip: readonly string[]): Promise<ValidationProblem[]> {
    return validateRecord(record, skip);
  }

  save(record: Model, transaction: unknown): Promise<Model> {
    if (canInsertDirectly(record, transaction)) return insertDirectly(record, transaction).catch((error: unknown) => Promise.reject(primaryKeyNamed(record, error)));
    if (canUpdateDirectly(record, transaction)) return updateDirectly(record, transaction).catch(staleVersion);
    // `validate` just ran: a second pass would run the model's validation hooks twice
    return record
      .save({ transaction: transaction as Transaction, validate: false })
      .catch((error: unknown) => staleVersion(primaryKeyNamed(record, error)));
  }

  async destroy(record: Model, transaction: unknown): Promise<void> {
    await record.destroy({ transaction: transaction as Transaction }).catch(staleVersion);
  }

  link(join: JoinTable, parentId: unknown, childId: unknown, transaction: unknown): Promise<boolean> {
    return linkRows(this.target.model as ModelStatic<Model>, join, parentId, childId, transaction as Transaction);
  }

  unlink(join: JoinTable, parentId: unknown, childId: unknown, transaction: unknown): Promise<void> {
    return unlinkRows(this.target.model as ModelStatic<Model>, join, parentId, childId, transaction as Transaction);
  }

  unlinkAll(join: JoinTable, parentId: unknown, keep: readonly unknown[], transaction: unknown): Promise<void> {
    return unlinkAllRows(this.target.model as ModelStatic<Model>, join, parentId, keep, transaction as Transaction);
  }

  hasLinks(join: JoinTable, parentId: unknown, transaction: unknown): Promise<boolean> {
    return hasLinkRows(this.target.model as ModelStatic<Model>, join, parentId, transaction as Transaction);
  }

  bumpVersions(model: unknown, versionAttribute: string, selection: RecordSelection, at: Date, transaction: unknown): Promise<void> {
    return bumpVersions(model as ModelStatic<Model>, versionAttribute, selection, at, transaction as Transaction);
  }

  bumpLoadedVersion(record: Model, versionAttribute: string, at: Date): void {
    bumpLoadedVersion(record, versionAttribute, at);
  }

  validationProblems(error: unknown): ValidationProblem[] | undefined {
    return validationProblems(error);
  }

  /** Columns from the model's attributes, VIRTUAL ones and the classes' getters as properties, join tables from the other models. */
  describeModel(model: unknown): ModelDescription | undefined {
    return describeSequelizeModel(model);
  }

  transientFailure(error: unknown): ServiceUnavailable | undefined {
    return transientFailure(error);
  }

  /** Unique, foreign key, not null and check violations, by the driver's code; columns named as this Resource's model's attributes. */
  constraintViolation(error: unknown, record?: Model): ConstraintViolation | undefined {
    return constraintViolation(error, this.target.model as ModelStatic<Model> | undefined, record);
  }

  throughParentIds(record: Model): unknown[] {
    const value = (typeof record.get === 'function' ? record.get(PARENT_IDS) : (record as unknown as Record<string, unknown>)[PARENT_IDS]) as unknown;
    // a direct SELECT collects them in a list; a correlated subquery returns them comma-separated
    if (Array.isArray(value)) return value;
    return value === null || value === undefined ? [] : String(value).split(',');
  }

  /** SQLite has one connection, and a transaction holds one; other dialects read from a pool. */
  concurrentReads(): boolean {
    const model = this.target.model as ModelStatic<Model> | undefined;
    return model?.sequelize?.getDialect() !== 'sqlite' && tx() === undefined;
  }

  count(scope: SequelizeScope): Promise<number> {
    const { where, include } = scope.unpaginated().findOptions;
    const primaryKey = scope.model.primaryKeyAttribute;
    // only joins can repeat a row; without them COUNT(*) is the same and cheaper
    if (canSelectDirectly(scope)) return countRows(scope);
    if (!include) return scope.model.count({ where, transaction: tx() });
    return scope.model.count({ where, include, distinct: true, col: primaryKey, transaction: tx() });
  }

  async calculate(scope: SequelizeScope, column: string, calculation: keyof typeof AGGREGATES): Promise<unknown> {
    const options = scope.unpaginated().findOptions;
    const row = (await scope.model.findOne({
      ...options,
      attributes: [[Sequelize.fn(AGGREGATES[calculation], columnOf(scope.model, column)), 'value']],
      raw: true,
      transaction: tx(),
    })) as unknown as { value: unknown } | null;
    return row?.value ?? null;
  }
}

/** Reads run inside the current write's transaction, so hooks see the write's own changes. */
function tx(): Transaction | undefined {
  return currentTransaction() as Transaction | undefined;
}

/** Sequelize's internals behind `version: true` and timestamps. */
interface VersionedModel {
  _versionAttribute?: string | false;
  _timestampAttributes?: { updatedAt?: string | false };
}

/**
 * A versioned record another write changed after this one read it without a
 * lock (a member a relationship write disassociates): a 409, as the client
 * could not have known, rather than Sequelize's error as a 500.
 */
function staleVersion(error: unknown): never {
  if (error instanceof OptimisticLockError) {
    throw new ConflictError('A record this write changes was changed by another write meanwhile; read it again and retry');
  }
  throw error;
}
