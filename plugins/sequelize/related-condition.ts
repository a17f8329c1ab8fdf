import { Op, Sequelize, type Model, type ModelStatic, type WhereOptions } from 'sequelize';
import type { RelatedCondition, RelatedLink, RelatedSortStep, SortDirection } from '../../core/index.ts';
import { ResourceConfigurationError } from '../../core/index.ts';
import { SequelizeScope } from './sequelize-scope.ts';
import { conditionsSql, generatorOf } from './select-sql.ts';

type Literal = ReturnType<typeof Sequelize.literal>;

interface ModelInternals {
  _scope?: { where?: WhereOptions };
  _timestampAttributes?: { deletedAt?: string };
  options: { paranoid?: boolean };
}

/**
 * `filter[has]` as `outer.key IN (SELECT related.key FROM related WHERE …)`,
 * one subquery per relationship, nested for deeper paths: the database runs it
 * as a semi-join, so the outer query stays one query with one row per record.
 * Written as IN rather than a correlated EXISTS because the related
 * conditions name the related table by its model's alias, which a
 * self-referencing relationship shares with the outer query; IN needs no
 * correlation. Both sides exclude NULL keys so that `has_no` (NOT) is exact:
 * a record with no related record at all has none matching.
 */
export function relatedCondition(model: ModelStatic<Model>, condition: RelatedCondition): Literal {
  const alternatives = condition.links.map((link) => linkSql(model, link));
  const any = alternatives.length === 1 ? alternatives[0]! : `(${alternatives.join(' OR ')})`;
  return Sequelize.literal(condition.negated ? `NOT ${any}` : any);
}

function linkSql(model: ModelStatic<Model>, link: RelatedLink): string {
  const q = quote(model);
  const related = sameDatabaseScope(model, link.scope);
  const outer = `${q(model.name)}.${q(fieldOf(model, link.parentKey))}`;
  let keys = keysSql(related, link.relatedKey);
  if (link.through) {
    const { table, parentColumn, childColumn } = link.through;
    const as = q('__mural_through');
    keys = `SELECT ${as}.${q(parentColumn)} FROM ${q(table)} AS ${as} WHERE ${as}.${q(parentColumn)} IS NOT NULL AND ${as}.${q(childColumn)} IN (${keys})`;
  }
  let sql = `${outer} IS NOT NULL AND ${outer} IN (${keys})`;
  if (link.parentType) {
    const column = `${q(model.name)}.${q(fieldOf(model, link.parentType.column))}`;
    sql = `${column} IS NOT NULL AND ${column} = ${model.sequelize!.escape(link.parentType.value)} AND ${sql}`;
  }
  return `(${sql})`;
}

/** `SELECT <key> FROM <table> AS <alias> WHERE <key> IS NOT NULL AND <the scope's conditions>`. */
function keysSql(scope: SequelizeScope, key: string): string {
  const model = scope.model;
  const q = quote(model);
  const column = `${q(model.name)}.${q(fieldOf(model, key))}`;
  const where = whereSql(scope);
  return `SELECT ${column} FROM ${tableSql(model)} AS ${q(model.name)} WHERE ${column} IS NOT NULL${where ? ` AND ${where}` : ''}`;
}

/**
 * `sort=department.name`: a scalar subquery per hop, each reading the
 * related table through a derived table so that its alias cannot shadow the
 * outer one (a self-referencing belongs_to), and taking the first match by
 * primary key (a has_one may have several rows). NULLs, whether the value or
 * the whole record is missing, sort last ascending and first descending, as
 * PostgreSQL orders them, on every dialect.
 */
export function relatedOrder(scope: SequelizeScope, steps: readonly RelatedSortStep[], column: string, direction: SortDirection): SequelizeScope {
  const model = scope.model;
  const q = quote(model);
  const value = hopSql(model, `${q(model.name)}.${q(fieldOf(model, steps[0]!.parentKey))}`, steps, 0, column);
  const nulls = Sequelize.literal(`CASE WHEN ${value} IS NULL THEN ${direction === 'asc' ? 1 : 0} ELSE ${direction === 'asc' ? 0 : 1} END`);
  return scope.order([nulls, 'ASC'], [Sequelize.literal(value), direction.toUpperCase()]);
}

function hopSql(outerModel: ModelStatic<Model>, outerKey: string, steps: readonly RelatedSortStep[], index: number, column: string): string {
  const step = steps[index]!;
  const related = sameDatabaseScope(outerModel, step.scope);
  const model = related.model;
  const q = quote(model);
  const as = (name: string) => `${q(model.name)}.${q(fieldOf(model, name))}`;
  const last = index === steps.length - 1;
  const carried = last ? as(column) : as(steps[index + 1]!.parentKey);
  const where = whereSql(related);
  const rows = `SELECT ${as(step.relatedKey)} AS ${q('k')}, ${as(model.primaryKeyAttribute)} AS ${q('p')}, ${carried} AS ${q('v')} FROM ${tableSql(model)} AS ${q(model.name)}${where ? ` WHERE ${where}` : ''}`;
  const hop = q(`__mural_sort${index}`);
  const picked = last ? `${hop}.${q('v')}` : hopSql(model, `${hop}.${q('v')}`, steps, index + 1, column);
  return `(SELECT ${picked} FROM (${rows}) AS ${hop} WHERE ${hop}.${q('k')} = ${outerKey} ORDER BY ${hop}.${q('p')} LIMIT 1)`;
}

/** The related scope's conditions as SQL, with what `findAll` would add: the default scope's and paranoid models' `deletedAt IS NULL`. */
function whereSql(scope: SequelizeScope): string {
  const model = scope.model;
  const options = scope.unpaginated().findOptions;
  if (options.include || options.group || options.having) {
    throw new ResourceConfigurationError(`${model.name}: a base scope with includes or grouping cannot serve filter[has] or a related sort`);
  }
  const internals = model as unknown as ModelInternals;
  const conditions: WhereOptions[] = [];
  if (options.where) conditions.push(options.where);
  if (internals._scope?.where) conditions.push(internals._scope.where);
  const deletedAt = internals._timestampAttributes?.deletedAt;
  if (internals.options.paranoid && deletedAt) conditions.push({ [deletedAt]: null });
  if (conditions.length === 0) return '';
  // one condition is most often a sideload's `key IN (ids)`, which conditionsSql writes without Sequelize's walk
  return conditionsSql(model, conditions.length === 1 ? conditions[0]! : { [Op.and]: conditions });
}

/** Whether `scope` can be a subquery of a query on `model`: the same database, and no joins or grouping (see `whereSql`). */
export function nestable(model: ModelStatic<Model>, scope: unknown): boolean {
  return scope instanceof SequelizeScope && scope.model.sequelize === model.sequelize && !scope.joinsModels && !scope.groupsRows;
}

function sameDatabaseScope(model: ModelStatic<Model>, scope: unknown): SequelizeScope {
  if (!(scope instanceof SequelizeScope) || scope.model.sequelize !== model.sequelize) {
    throw new ResourceConfigurationError(`${model.name}: filter[has] and related sorts need the related Resource's Sequelize scope on the same database`);
  }
  return scope;
}

/** The quoted table, with its schema if it has one. */
function tableSql(model: ModelStatic<Model>): string {
  return generatorOf(model).quoteTable(model.getTableName());
}

function fieldOf(model: ModelStatic<Model>, attribute: string): string {
  return model.getAttributes()[attribute]?.field ?? attribute;
}

function quote(model: ModelStatic<Model>): (name: string) => string {
  const generator = generatorOf(model);
  return (name) => generator.quoteIdentifier(name);
}
