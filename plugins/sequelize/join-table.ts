import { Sequelize, type Model, type ModelStatic } from 'sequelize';
import type { JoinTable } from '../../core/index.ts';
import { quotedIdentifier } from './quoted-names.ts';

type Literal = ReturnType<typeof Sequelize.literal>;

/** The hidden column carrying, on each related record, the parent ids it is linked to. */
export const PARENT_IDS = '__mural_parent_ids';

/** The column a joined read (`linkJoin`) selects each link's parent id under. */
export const PARENT = '__mural_parent';

function quoting(model: ModelStatic<Model>) {
  const sequelize = model.sequelize!;
  const q = (name: string) => quotedIdentifier(model, name);
  // whole numbers, the usual keys, escape to themselves
  const list = (ids: readonly unknown[]) => (ids.every(Number.isSafeInteger) ? ids.join(', ') : ids.map((id) => sequelize.escape(id as string)).join(', '));
  return { q, list };
}

function fieldOf(model: ModelStatic<Model>, attribute: string): string {
  return model.getAttributes()[attribute]?.field ?? attribute;
}

/** `<model>.<pk> IN (SELECT child_key FROM join WHERE parent_key IN (…))`: no association needed. */
export function joinCondition(model: ModelStatic<Model>, join: JoinTable, parentIds: readonly unknown[]): Literal {
  const { q, list } = quoting(model);
  const key = `${q(model.name)}.${q(fieldOf(model, join.primaryKey))}`;
  return Sequelize.literal(`${key} IN (SELECT ${q(join.childKey)} FROM ${q(join.table)} WHERE ${q(join.parentKey)} IN (${list(parentIds)}))`);
}

/**
 * A correlated subquery listing, comma-separated, the requested parents each
 * record is linked to; it keeps the sideload to one query and one row per record.
 */
export function joinAnnotation(model: ModelStatic<Model>, join: JoinTable, parentIds: readonly unknown[]): Literal {
  const { q, list } = quoting(model);
  const key = `${q(model.name)}.${q(fieldOf(model, join.primaryKey))}`;
  const parent = `${q('__mural_join')}.${q(join.parentKey)}`;
  const aggregate = model.sequelize!.getDialect() === 'postgres' ? `string_agg(CAST(${parent} AS TEXT), ',')` : `GROUP_CONCAT(${parent})`;
  return Sequelize.literal(
    `(SELECT ${aggregate} FROM ${q(join.table)} AS ${q('__mural_join')} WHERE ${q('__mural_join')}.${q(join.childKey)} = ${key} AND ${parent} IN (${list(parentIds)}))`,
  );
}

/**
 * `INNER JOIN (SELECT child, parent FROM join WHERE parent IN (…))`: one row
 * per link, so the database does a plain join rather than a correlated
 * aggregate per row; the derived table exposes only its own two names
 * (`__mural_join.__mural_parent` among them), so no column of the model
 * becomes ambiguous.
 */
export function linkJoin(model: ModelStatic<Model>, join: JoinTable, parentIds: readonly unknown[]): string {
  const { q, list } = quoting(model);
  const links = `SELECT ${q(join.childKey)} AS ${q('__mural_child')}, ${q(join.parentKey)} AS ${q(PARENT)} FROM ${q(join.table)} WHERE ${q(join.parentKey)} IN (${list(parentIds)})`;
  return ` INNER JOIN (${links}) AS ${q('__mural_join')} ON ${q('__mural_join')}.${q('__mural_child')} = ${q(model.name)}.${q(fieldOf(model, join.primaryKey))}`;
}
