import { Sequelize, type Model, type Transaction } from 'sequelize';
import { currentTransaction } from '../../core/index.ts';
import { selectThroughDriver } from './driver-select.ts';
import { generatorOf, storedAttributes } from './select-sql.ts';
import type { SequelizeScope } from './sequelize-scope.ts';

/**
 * Runs a scope keeping at most N records per value of a column, in one query:
 * the scope's SELECT gains `ROW_NUMBER() OVER (PARTITION BY column ORDER BY
 * <scope order>)` and an outer query keeps rows numbered N or less. Window
 * functions exist on SQLite ≥ 3.25, PostgreSQL and MySQL 8 / MariaDB 10.2.
 */
export async function findPerGroup(scope: SequelizeScope, raw = false): Promise<Model[]> {
  const model = scope.model;
  const { column, limit } = scope.perGroup!;
  const sequelize = model.sequelize!;
  const generator = generatorOf(model);
  const q = (name: string) => generator.quoteIdentifier(name);
  const options = scope.findOptions;
  const order = options.order ? generator.getQueryOrders({ order: options.order }, model, false).mainQueryOrder.join(', ') : '';
  const field = model.getAttributes()[column]?.field ?? column;
  const rowNumber = `ROW_NUMBER() OVER (PARTITION BY ${q(model.name)}.${q(field)}${order ? ` ORDER BY ${order}` : ''})`;
  const attributes = storedAttributes(model).map((name) => [model.getAttributes()[name]!.field ?? name, name] as [string, string]);
  const extra = Array.isArray(options.attributes) ? [] : ((options.attributes as { include?: unknown[] } | undefined)?.include ?? []);
  const inner = generator
    .selectQuery(model.getTableName(), {
      ...options,
      attributes: [...attributes, ...(extra as [string, string][]), [Sequelize.literal(rowNumber) as unknown as string, '__mural_row']],
      order: undefined,
      limit: undefined,
      offset: undefined,
      model,
    }, model)
    .replace(/;\s*$/, '');
  // the scope's own LIMIT (a request's sideload budget) caps the whole result
  const total = options.limit === undefined ? '' : ` LIMIT ${Number(options.limit)}`;
  const sql = `SELECT * FROM (${inner}) AS ${q('__mural_ranked')} WHERE ${q('__mural_row')} <= ${Number(limit)} ORDER BY ${q(column)}, ${q('__mural_row')}${total}`;
  const transaction = currentTransaction() as Transaction | undefined;
  if (raw) return (await selectThroughDriver(sequelize, sql, transaction, { plain: true })) as unknown[] as Model[];
  return sequelize.query(sql, { model, mapToModel: true, transaction });
}
