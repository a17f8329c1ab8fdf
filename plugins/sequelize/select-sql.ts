import { Op, Sequelize, Utils, type FindOptions, type Model, type ModelStatic } from 'sequelize';
import { linkJoin, PARENT } from './join-table.ts';
import { quotedColumn } from './quoted-names.ts';
import { SequelizeScope, type Through } from './sequelize-scope.ts';

interface QueryGenerator {
  selectQuery(table: unknown, options: FindOptions & { model: ModelStatic<Model> }, model: ModelStatic<Model>): string;
  selectFromTableFragment(options: unknown, model: ModelStatic<Model>, attributes: string[], table: string, as: string): string;
  escapeAttributes(attributes: unknown[], options: unknown, as: string): string[];
  getQueryOrders(options: FindOptions, model: ModelStatic<Model>, subQuery: boolean): { mainQueryOrder: string[] };
  getWhereConditions(where: unknown, as: string, model: ModelStatic<Model>, options: unknown): string;
  addLimitAndOffset(options: FindOptions, model: ModelStatic<Model>): string;
  quoteTable(table: unknown): string;
  quoteIdentifier(name: string): string;
}

export function generatorOf(model: ModelStatic<Model>): QueryGenerator {
  return (model.sequelize!.getQueryInterface() as unknown as { queryGenerator: QueryGenerator }).queryGenerator;
}

/**
 * The SELECT of a scope `canSelectDirectly` accepts. The parts that depend
 * only on the model, the column list and the order are built once and
 * cached; WHERE, the link join and LIMIT are built per query. Anything the
 * cache does not understand (other findAll options, computed columns,
 * order items other than columns) goes through Sequelize's `selectQuery`.
 */
export function selectSql(scope: SequelizeScope): string {
  return selectStatement(scope).sql;
}

/** `selectSql`, with the names of its result columns when it was built from cached parts. */
export function selectStatement(scope: SequelizeScope): { sql: string; columns?: readonly string[] } {
  const options = ownOptions(scope);
  const parts = cachedParts(scope.model, options, scope.through !== undefined);
  if (!parts) return { sql: generatedSelectSql(scope) };
  const model = scope.model;
  const generator = generatorOf(model);
  let sql = parts.head;
  if (scope.through) sql += linkJoin(model, scope.through.join, scope.through.parentIds);
  sql += whereSql(model, shapeOf(model), options.where);
  if (parts.order) sql += ` ORDER BY ${parts.order}`;
  return { sql: `${sql}${generator.addLimitAndOffset(options, model)};`, columns: parts.columns };
}

/** The scope's options without its many_to_many link, which the SELECT joins instead. */
function ownOptions(scope: SequelizeScope): Readonly<FindOptions> {
  return (scope.through ? scope.withoutThrough() : scope).findOptions;
}

/** Whether `selectSql` builds this scope's SELECT from cached parts. */
export function isTemplated(scope: SequelizeScope): boolean {
  return templateKey(ownOptions(scope), scope.through !== undefined) !== undefined;
}

/** The same SELECT from Sequelize's `selectQuery` alone. */
export function generatedSelectSql(scope: SequelizeScope): string {
  const model = scope.model;
  const options = { ...ownOptions(scope) };
  const extra = Array.isArray(options.attributes) ? [] : ((options.attributes as { include?: unknown[] } | undefined)?.include ?? []);
  const attributes = [...columnsOf(model, options.attributes, scope.through !== undefined), ...(extra as Array<[string, string]>)];
  const mapped = Utils.mapOptionFieldNames({ ...options, attributes } as never, model as never) as FindOptions;
  const generator = scope.through ? joiningGenerator(model, scope.through) : generatorOf(model);
  return generator.selectQuery(model.getTableName(), { ...mapped, model }, model);
}

/** `SELECT COUNT(*)` of a scope `canSelectDirectly` accepts, before pagination. */
export function countSql(scope: SequelizeScope): string {
  const model = scope.model;
  const options = scope.unpaginated().findOptions;
  if (templateKey(options, false) === undefined) return generatedCountSql(scope);
  const shape = shapeOf(model);
  return `${shape.countHead}${whereSql(model, shape, options.where)};`;
}

/** The same count from Sequelize's `selectQuery` alone. */
export function generatedCountSql(scope: SequelizeScope): string {
  const model = scope.model;
  const { where } = Utils.mapOptionFieldNames({ where: scope.unpaginated().findOptions.where } as never, model as never) as FindOptions;
  const attributes = [[Sequelize.fn('COUNT', Sequelize.literal('*')), 'count']] as unknown as string[];
  return generatorOf(model).selectQuery(model.getTableName(), { attributes, where, model }, model);
}

/** The attributes with a column: VIRTUAL ones have none to select. */
export function storedAttributes(model: ModelStatic<Model>): string[] {
  const virtual = (model as unknown as { _virtualAttributes?: Set<string> })._virtualAttributes;
  return Object.keys(model.getAttributes()).filter((name) => !virtual?.has(name));
}

/** Selected attributes as `[field, name]` pairs, plus the parent id of a linked read. */
function columnsOf(model: ModelStatic<Model>, attributes: FindOptions['attributes'], linked: boolean): Array<[string, string]> {
  const named = Array.isArray(attributes) ? (attributes as string[]) : storedAttributes(model);
  const columns = named.map((name) => (typeof name === 'string' ? ([model.getAttributes()[name]?.field ?? name, name] as [string, string]) : (name as [string, string])));
  if (linked) columns.push([Sequelize.col(`__mural_join.${PARENT}`) as unknown as string, PARENT]);
  return columns;
}

interface Parts {
  /** `SELECT … FROM table AS alias` */
  head: string;
  order: string;
  /** The result columns' names, in order. */
  columns: readonly string[];
}

/** What every statement on a model shares. */
interface Shape {
  /** The quoted alias conditions are qualified with. */
  as: string;
  /** Whether some attribute's column has another name, so conditions written with attribute names need mapping (a deep copy). */
  renamesFields: boolean;
  /** `SELECT COUNT(*) AS count FROM table AS alias` */
  countHead: string;
}

const shapes = new WeakMap<ModelStatic<Model>, Shape>();

function shapeOf(model: ModelStatic<Model>): Shape {
  let shape = shapes.get(model);
  if (!shape) {
    const renamesFields = Object.entries(model.getAttributes()).some(([name, attribute]) => attribute.field !== undefined && attribute.field !== name);
    const countHead = generatedCountSql(SequelizeScope.of(model)).replace(/;$/, '');
    shapes.set(model, (shape = { as: generatorOf(model).quoteIdentifier(model.name), renamesFields, countHead }));
  }
  return shape;
}

/** ` WHERE …` for conditions written against the model, or nothing. */
function whereSql(model: ModelStatic<Model>, shape: Shape, conditions: FindOptions['where']): string {
  const where = conditionsSql(model, conditions, shape);
  return where ? ` WHERE ${where}` : '';
}

/**
 * Conditions written against the model as SQL qualified by its alias
 * (empty for none): what a WHERE clause or a subquery's holds.
 */
export function conditionsSql(model: ModelStatic<Model>, conditions: FindOptions['where'], shape = shapeOf(model)): string {
  if (!conditions) return '';
  const simple = simpleConditions(model, conditions);
  if (simple !== undefined) return simple;
  const mapped = shape.renamesFields ? Utils.mapWhereFieldNames(conditions as never, model as never) : conditions;
  return generatorOf(model).getWhereConditions(mapped, shape.as, model, { model });
}

/** The comparisons `simpleConditions` writes, as Sequelize writes them. */
const COMPARISONS = new Map<symbol, string>([[Op.eq, '='], [Op.gt, '>'], [Op.gte, '>='], [Op.lt, '<'], [Op.lte, '<=']]);

/**
 * Conditions that are only whole-number comparisons of columns, or an AND
 * of them, written as Sequelize writes them (the tests compare the two)
 * without its general walk over the condition tree: every sideload's
 * `"Alias"."column" IN (1, 2, 3)` (`where(col, { in: ids })`, see
 * filter-condition.ts), and with a tenant's row rule
 * (`"Alias"."company_id" IN (7)`) beside it, the AND of the two. Anything
 * else takes the walk.
 */
function simpleConditions(model: ModelStatic<Model>, conditions: object): string | undefined {
  if (conditions instanceof Utils.Where) return comparison(model, conditions);
  if (Array.isArray(conditions) || Object.keys(conditions).length > 0) return undefined;
  const symbols = Object.getOwnPropertySymbols(conditions);
  const parts = symbols.length === 1 && symbols[0] === Op.and ? (conditions as Record<symbol, unknown>)[Op.and] : undefined;
  if (!Array.isArray(parts) || parts.length < 2) return undefined;
  const written: string[] = [];
  for (const part of parts) {
    const sql = part instanceof Utils.Where ? comparison(model, part) : undefined;
    if (sql === undefined) return undefined;
    written.push(sql);
  }
  return `(${written.join(' AND ')})`;
}

/** `"Alias"."column" IN (1, 2)` or `"Alias"."column" >= 3`, for a `where(col, { op: whole numbers })`; undefined for anything else. */
function comparison(model: ModelStatic<Model>, where: object): string | undefined {
  const { attribute, comparator, logic } = where as { attribute: unknown; comparator: string; logic: unknown };
  if (!(attribute instanceof Utils.Col) || comparator !== '=' || typeof logic !== 'object' || logic === null) return undefined;
  const column = (attribute as unknown as { col: unknown }).col;
  if (typeof column !== 'string' || Object.keys(logic).length > 0) return undefined;
  const symbols = Object.getOwnPropertySymbols(logic);
  if (symbols.length !== 1) return undefined;
  const operand = (logic as Record<symbol, unknown>)[symbols[0]!];
  if (symbols[0] === Op.in) {
    if (!Array.isArray(operand) || operand.length === 0 || !operand.every(Number.isSafeInteger)) return undefined;
    return `${quotedColumn(model, column)} IN (${operand.join(', ')})`;
  }
  const symbol = COMPARISONS.get(symbols[0]!);
  if (symbol === undefined || !Number.isSafeInteger(operand)) return undefined;
  return `${quotedColumn(model, column)} ${symbol} ${String(operand)}`;
}

const TEMPLATED_OPTIONS = new Set(['attributes', 'where', 'order', 'limit', 'offset']);
const partsCache = new WeakMap<ModelStatic<Model>, Map<string, Parts>>();
/**
 * Shapes kept per model. A shape's order comes from the request's `sort`,
 * whose orderings of sortable names (and related ones) run into the
 * millions: past this many, the oldest shape makes room, so a stream of
 * distinct sorts costs rebuilt parts, never memory.
 */
export const MAX_SHAPES_PER_MODEL = 256;

function cachedParts(model: ModelStatic<Model>, options: Readonly<FindOptions>, linked: boolean): Parts | undefined {
  const key = templateKey(options, linked);
  if (key === undefined) return undefined;
  let byKey = partsCache.get(model);
  if (!byKey) partsCache.set(model, (byKey = new Map()));
  let parts = byKey.get(key);
  if (!parts) {
    if (byKey.size >= MAX_SHAPES_PER_MODEL) byKey.delete(byKey.keys().next().value!);
    byKey.set(key, (parts = buildParts(model, options, linked)));
  }
  return parts;
}

/** How many shapes of `model` are kept now (for tests). */
export function keptShapes(model: ModelStatic<Model>): number {
  return partsCache.get(model)?.size ?? 0;
}

/** A key naming the cacheable parts, or undefined when the options hold anything else. */
function templateKey(options: Readonly<FindOptions>, linked: boolean): string | undefined {
  for (const name of Object.keys(options)) if (!TEMPLATED_OPTIONS.has(name)) return undefined;
  const { attributes, order } = options;
  if (attributes !== undefined && !(Array.isArray(attributes) && attributes.every((a) => typeof a === 'string'))) return undefined;
  let orderKey = '';
  for (const item of (order ?? []) as unknown[]) {
    const column = Array.isArray(item) && item.length === 2 && item[0] instanceof Utils.Col ? (item[0] as { col: unknown }).col : undefined;
    if (typeof column !== 'string' || (item as unknown[])[1] !== 'ASC' && (item as unknown[])[1] !== 'DESC') return undefined;
    orderKey += `${column} ${String((item as unknown[])[1])},`;
  }
  return `${linked ? 'linked' : ''}|${attributes ? (attributes as string[]).join(',') : '*'}|${orderKey}`;
}

function buildParts(model: ModelStatic<Model>, options: Readonly<FindOptions>, linked: boolean): Parts {
  const generator = generatorOf(model);
  const { as } = shapeOf(model);
  const columns = columnsOf(model, options.attributes, linked);
  const head = generator.selectFromTableFragment({}, model, generator.escapeAttributes(columns, { model }, as), generator.quoteTable(model.getTableName()), as);
  const order = options.order ? generator.getQueryOrders({ order: options.order }, model, false).mainQueryOrder.join(', ') : '';
  return { head, order, columns: columns.map(([, name]) => name) };
}

/** The dialect's generator, with the link join after the FROM clause. */
function joiningGenerator(model: ModelStatic<Model>, through: Through): QueryGenerator {
  const base = generatorOf(model);
  const joinClause = linkJoin(model, through.join, through.parentIds);
  const generator = Object.create(base) as QueryGenerator;
  generator.selectFromTableFragment = (...args) => base.selectFromTableFragment.apply(generator, args) + joinClause;
  return generator;
}
