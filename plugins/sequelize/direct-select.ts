import { Sequelize, Utils, type FindOptions, type Model, type ModelStatic, type Transaction } from 'sequelize';
import { currentTransaction } from '../../core/index.ts';
import { selectThroughDriver } from './driver-select.ts';
import type { SequelizeScope } from './sequelize-scope.ts';

interface QueryGenerator {
  selectQuery(table: unknown, options: FindOptions & { model: ModelStatic<Model> }, model: ModelStatic<Model>): string;
}

interface ModelInternals {
  _scope?: Record<string, unknown>;
  options: { paranoid?: boolean };
}

/**
 * Whether a scope can be read with one generated SELECT instead of
 * `findAll`: nothing `findAll` would add (default scopes, paranoid
 * filtering, joins, grouping) is in play.
 */
export function canSelectDirectly(scope: SequelizeScope): boolean {
  const model = scope.model as unknown as ModelInternals;
  const options = scope.findOptions;
  return !options.include && !options.group && !options.having && !model.options.paranoid && Object.keys(model._scope ?? {}).length === 0;
}

/**
 * Plain rows for a scope, skipping `findAll`'s option cloning, hooks and
 * instance building: the read path's hot loop when no user code needs models.
 */
export function selectRows(scope: SequelizeScope): Promise<Model[]> {
  const model = scope.model;
  const sequelize = model.sequelize!;
  const generator = (sequelize.getQueryInterface() as unknown as { queryGenerator: QueryGenerator }).queryGenerator;
  const options = { ...scope.findOptions };
  const extra = Array.isArray(options.attributes) ? [] : ((options.attributes as { include?: unknown[] } | undefined)?.include ?? []);
  const named = Array.isArray(options.attributes) ? (options.attributes as string[]) : Object.keys(model.getAttributes());
  const attributes = named.map((name) => (typeof name === 'string' ? ([model.getAttributes()[name]?.field ?? name, name] as [string, string]) : name));
  const mapped = Utils.mapOptionFieldNames({ ...options, attributes: [...attributes, ...(extra as [string, string][])] } as never, model as never) as FindOptions;
  const sql = generator.selectQuery(model.getTableName(), { ...mapped, model }, model);
  return selectThroughDriver(sequelize, sql, currentTransaction() as Transaction | undefined) as Promise<unknown[]> as Promise<Model[]>;
}

/** `COUNT(*)` of a scope that `canSelectDirectly` accepts. */
export async function countRows(scope: SequelizeScope): Promise<number> {
  const model = scope.model;
  const sequelize = model.sequelize!;
  const generator = (sequelize.getQueryInterface() as unknown as { queryGenerator: QueryGenerator }).queryGenerator;
  const { where } = Utils.mapOptionFieldNames({ where: scope.unpaginated().findOptions.where } as never, model as never) as FindOptions;
  const attributes = [[Sequelize.fn('COUNT', Sequelize.literal('*')), 'count']] as unknown as string[];
  const sql = generator.selectQuery(model.getTableName(), { attributes, where, model }, model);
  const [row] = await selectThroughDriver(sequelize, sql, currentTransaction() as Transaction | undefined);
  // PostgreSQL returns bigint counts as strings
  return Number(row?.count ?? 0);
}
