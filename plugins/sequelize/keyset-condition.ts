import { Op, Sequelize, type Model, type ModelStatic, type OrderItem, type WhereOptions } from 'sequelize';
import type { KeysetKey } from '../../core/index.ts';
import { columnOf } from './filter-condition.ts';

/**
 * The keyset order with NULL below every value. SQLite and MySQL already
 * sort NULL first ascending and last descending; PostgreSQL does the
 * opposite unless told.
 */
export function keysetOrder(model: ModelStatic<Model>, keys: readonly KeysetKey[]): OrderItem[] {
  const explicit = model.sequelize!.getDialect() === 'postgres';
  return keys.map((key) => {
    const direction = key.direction === 'asc' ? (explicit ? 'ASC NULLS FIRST' : 'ASC') : explicit ? 'DESC NULLS LAST' : 'DESC';
    return [columnOf(model, key.column), direction];
  });
}

/**
 * Records strictly after `values` in the keyset order: for some key, every
 * earlier key equals its value and this one comes after it. With NULL the
 * lowest value, "after NULL" ascending is any value, "after v" descending
 * is a lower value or NULL, and nothing comes after NULL descending.
 */
export function keysetCondition(model: ModelStatic<Model>, keys: readonly KeysetKey[], values: readonly unknown[]): WhereOptions {
  const branches: WhereOptions[] = [];
  for (let index = 0; index < keys.length; index++) {
    const beyond = after(model, keys[index]!, values[index]);
    if (beyond === undefined) continue;
    const equal = keys.slice(0, index).map((key, at) => same(model, key, values[at]));
    branches.push({ [Op.and]: [...equal, beyond] });
  }
  return branches.length === 0 ? { [Op.and]: [Sequelize.literal('1 = 0')] } : { [Op.or]: branches };
}

function same(model: ModelStatic<Model>, key: KeysetKey, value: unknown): WhereOptions {
  return Sequelize.where(columnOf(model, key.column), value === null ? { [Op.is]: null } : { [Op.eq]: value });
}

function after(model: ModelStatic<Model>, key: KeysetKey, value: unknown): WhereOptions | undefined {
  const column = columnOf(model, key.column);
  if (key.direction === 'asc') return Sequelize.where(column, value === null ? { [Op.not]: null } : { [Op.gt]: value });
  if (value === null) return undefined;
  return { [Op.or]: [Sequelize.where(column, { [Op.lt]: value }), Sequelize.where(column, { [Op.is]: null })] };
}
