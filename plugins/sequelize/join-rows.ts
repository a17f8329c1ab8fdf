import type { Model, ModelStatic, Sequelize, Transaction } from 'sequelize';
import type { JoinTable } from '../../core/index.ts';

interface JoinSql {
  readonly sequelize: Sequelize;
  readonly table: string;
  readonly parent: string;
  readonly child: string;
}

function joinSql(model: ModelStatic<Model>, join: JoinTable): JoinSql {
  const sequelize = model.sequelize!;
  const q = (name: string) => sequelize.getQueryInterface().quoteIdentifier(name);
  return { sequelize, table: q(join.table), parent: q(join.parentKey), child: q(join.childKey) };
}

/**
 * An INSERT that leaves an existing row alone instead of failing on the
 * join table's unique key: two requests linking the same pair from opposite
 * sides at once both succeed, as JSON:API asks of adding a member that is
 * there. MySQL's `INSERT IGNORE` would also swallow a foreign key failure,
 * so it gets a no-op update instead.
 */
function insertUnlessPresent({ sequelize, table, parent, child }: JoinSql): string {
  const insert = `INSERT INTO ${table} (${parent}, ${child}) VALUES (?, ?)`;
  const dialect = sequelize.getDialect();
  if (dialect === 'mysql' || dialect === 'mariadb') return `${insert} ON DUPLICATE KEY UPDATE ${parent} = ${parent}`;
  return `${insert} ON CONFLICT DO NOTHING`;
}

/**
 * Links parent and child unless they are linked already; true when this
 * call added the row (as far as this transaction can see: a concurrent
 * writer may add the same row first, and the insert then does nothing).
 */
export async function linkRows(model: ModelStatic<Model>, join: JoinTable, parentId: unknown, childId: unknown, transaction: Transaction): Promise<boolean> {
  const sql = joinSql(model, join);
  const replacements = [parentId, childId];
  const [rows] = await sql.sequelize.query(`SELECT 1 AS found FROM ${sql.table} WHERE ${sql.parent} = ? AND ${sql.child} = ?`, { replacements, transaction });
  if ((rows as unknown[]).length > 0) return false;
  await sql.sequelize.query(insertUnlessPresent(sql), { replacements, transaction });
  return true;
}

export async function unlinkRows(model: ModelStatic<Model>, join: JoinTable, parentId: unknown, childId: unknown, transaction: Transaction): Promise<void> {
  const sql = joinSql(model, join);
  await sql.sequelize.query(`DELETE FROM ${sql.table} WHERE ${sql.parent} = ? AND ${sql.child} = ?`, { replacements: [parentId, childId], transaction });
}

/** `child NOT IN (…)` for the children to keep, or nothing: one statement whatever the number of rows. */
function keeping(sql: JoinSql, keep: readonly unknown[]): { clause: string; replacements: unknown[] } {
  if (keep.length === 0) return { clause: '', replacements: [] };
  return { clause: ` AND ${sql.child} NOT IN (${keep.map(() => '?').join(', ')})`, replacements: [...keep] };
}

/** Removes every link of `parentId` but those to `keep`, in one statement. */
export async function unlinkAllRows(
  model: ModelStatic<Model>, join: JoinTable, parentId: unknown, keep: readonly unknown[], transaction: Transaction,
): Promise<void> {
  const sql = joinSql(model, join);
  const kept = keeping(sql, keep);
  await sql.sequelize.query(`DELETE FROM ${sql.table} WHERE ${sql.parent} = ?${kept.clause}`, { replacements: [parentId, ...kept.replacements], transaction });
}

/** Whether `parentId` has any link in the join table. */
export async function hasLinkRows(model: ModelStatic<Model>, join: JoinTable, parentId: unknown, transaction: Transaction): Promise<boolean> {
  const sql = joinSql(model, join);
  const [rows] = await sql.sequelize.query(`SELECT 1 AS found FROM ${sql.table} WHERE ${sql.parent} = ? LIMIT 1`, { replacements: [parentId], transaction });
  return (rows as unknown[]).length > 0;
}

/**
 * The subquery selecting the children linked to `parentId` (less `keep`):
 * what a statement over the children's own table compares its key with.
 */
export function linkedChildren(model: ModelStatic<Model>, join: JoinTable, parentId: unknown, keep: readonly unknown[]): { sql: string; replacements: unknown[] } {
  const sql = joinSql(model, join);
  const kept = keeping(sql, keep);
  return { sql: `SELECT ${sql.child} FROM ${sql.table} WHERE ${sql.parent} = ?${kept.clause}`, replacements: [parentId, ...kept.replacements] };
}
