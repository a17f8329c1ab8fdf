import { Sequelize, Utils, type FindOptions, type Model, type ModelStatic, type Transaction } from 'sequelize';
import { currentTransaction } from '../../core/index.ts';
import { selectThroughDriver } from './driver-select.ts';
import { PARENT_IDS } from './join-table.ts';
import type { SequelizeScope, Through } from './sequelize-scope.ts';

interface QueryGenerator {
  selectQuery(table: unknown, options: FindOptions & { model: ModelStatic<Model> }, model: ModelStatic<Model>): string;
  selectFromTableFragment(...args: unknown[]): string;
}

function generatorOf(sequelize: Sequelize): QueryGenerator {
  return (sequelize.getQueryInterface() as unknown as { queryGenerator: QueryGenerator }).queryGenerator;
}

const PARENT = '__mural_parent';

/**
 * The dialect's generator, except that the FROM clause joins the parents'
 * links: `INNER JOIN (SELECT child, parent FROM join WHERE parent IN (…))`.
 * One row per link, so the database does a plain join rather than a
 * correlated aggregate per row; the derived table exposes only its own two
 * names, so no column of the model becomes ambiguous.
 */
function joiningGenerator(sequelize: Sequelize, model: ModelStatic<Model>, through: Through): QueryGenerator {
  const base = generatorOf(sequelize);
  const q = (name: string) => sequelize.getQueryInterface().quoteIdentifier(name);
  const { join, parentIds } = through;
  const key = model.getAttributes()[join.primaryKey]?.field ?? join.primaryKey;
  const ids = parentIds.map((id) => sequelize.escape(id as string)).join(', ');
  const links = `SELECT ${q(join.childKey)} AS ${q('__mural_child')}, ${q(join.parentKey)} AS ${q(PARENT)} FROM ${q(join.table)} WHERE ${q(join.parentKey)} IN (${ids})`;
  const joinClause = ` INNER JOIN (${links}) AS ${q('__mural_join')} ON ${q('__mural_join')}.${q('__mural_child')} = ${q(model.name)}.${q(key)}`;
  const generator = Object.create(base) as QueryGenerator;
  generator.selectFromTableFragment = (...args: unknown[]) => base.selectFromTableFragment.apply(generator, args) + joinClause;
  return generator;
}

function linkedParent(): [string, string] {
  return [Sequelize.col(`__mural_join.${PARENT}`) as unknown as string, PARENT];
}

/** One row per record again, in first-seen order, with every linked parent id under PARENT_IDS. */
function foldParents(rows: Array<Record<string, unknown>>, primaryKey: string): Array<Record<string, unknown>> {
  const byKey = new Map<unknown, Record<string, unknown>>();
  for (const row of rows) {
    const parent = row[PARENT];
    delete row[PARENT];
    const seen = byKey.get(row[primaryKey]);
    if (seen) (seen[PARENT_IDS] as unknown[]).push(parent);
    else byKey.set(row[primaryKey], Object.assign(row, { [PARENT_IDS]: [parent] }));
  }
  return [...byKey.values()];
}

interface ModelInternals {
  _scope?: Record<string, unknown>;
  options: { paranoid?: boolean };
  hasHook(name: string): boolean;
}

/** Model hooks `findAll` runs, which user code may rely on to shape what it reads. */
const FIND_HOOKS = ['beforeFind', 'beforeFindAfterExpandIncludeAll', 'beforeFindAfterOptions', 'afterFind'];

/**
 * Whether a scope can be read with one generated SELECT instead of
 * `findAll`: nothing `findAll` would add (default scopes, paranoid
 * filtering, find hooks, joins, grouping) is in play.
 */
export function canSelectDirectly(scope: SequelizeScope): boolean {
  const model = scope.model as unknown as ModelInternals;
  const options = scope.findOptions;
  if (options.include || options.group || options.having || model.options.paranoid) return false;
  return Object.keys(model._scope ?? {}).length === 0 && !FIND_HOOKS.some((hook) => model.hasHook(hook));
}

/**
 * Plain rows for a scope, skipping `findAll`'s option cloning, hooks and
 * instance building: the read path's hot loop when no user code needs models.
 */
export async function selectRows(scope: SequelizeScope): Promise<Model[]> {
  const model = scope.model;
  const sequelize = model.sequelize!;
  const through = scope.through;
  const options = { ...(through ? scope.withoutThrough() : scope).findOptions };
  const extra = Array.isArray(options.attributes) ? [] : ((options.attributes as { include?: unknown[] } | undefined)?.include ?? []);
  const named = Array.isArray(options.attributes) ? (options.attributes as string[]) : Object.keys(model.getAttributes());
  const attributes = named.map((name) => (typeof name === 'string' ? ([model.getAttributes()[name]?.field ?? name, name] as [string, string]) : name));
  if (through) attributes.push(linkedParent());
  const mapped = Utils.mapOptionFieldNames({ ...options, attributes: [...attributes, ...(extra as [string, string][])] } as never, model as never) as FindOptions;
  const generator = through ? joiningGenerator(sequelize, model, through) : generatorOf(sequelize);
  const sql = generator.selectQuery(model.getTableName(), { ...mapped, model }, model);
  const rows = await selectThroughDriver(sequelize, sql, currentTransaction() as Transaction | undefined);
  return (through ? foldParents(rows, model.primaryKeyAttribute) : rows) as unknown[] as Model[];
}

/** `COUNT(*)` of a scope that `canSelectDirectly` accepts. */
export async function countRows(scope: SequelizeScope): Promise<number> {
  const model = scope.model;
  const sequelize = model.sequelize!;
  const generator = generatorOf(sequelize);
  const { where } = Utils.mapOptionFieldNames({ where: scope.unpaginated().findOptions.where } as never, model as never) as FindOptions;
  const attributes = [[Sequelize.fn('COUNT', Sequelize.literal('*')), 'count']] as unknown as string[];
  const sql = generator.selectQuery(model.getTableName(), { attributes, where, model }, model);
  const [row] = await selectThroughDriver(sequelize, sql, currentTransaction() as Transaction | undefined);
  // PostgreSQL returns bigint counts as strings
  return Number(row?.count ?? 0);
}
