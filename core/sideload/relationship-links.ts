import { equalityClause, type Adapter, type JoinTable } from '../adapter/adapter.ts';
import type { RelationshipDefinition } from '../resource/relationship-definition.ts';
import { foreignKeyOf, otherKeyOf, typeColumnOf } from '../relationships/relationship-keys.ts';
import type { ResourceBase } from '../resource/resource-base.ts';

type ResourceClass = typeof ResourceBase;

/**
 * How one relationship kind finds the children of known parents and hands
 * them back: `link` narrows the related scope, `parentKeyOfChild` (or, for
 * a many_to_many, `parentKeys`) says which parent keys a child belongs to,
 * `groupColumn` partitions per-parent pages.
 */
export type LinkStrategy = LinkBase & ChildKeys;

interface LinkBase {
  /** Keys of the parents the query asks for; empty means nothing to load. */
  keys: unknown[];
  link(scope: unknown, adapter: Adapter): unknown;
  /** The parent key value of a parent. */
  parentKey(parent: Record<string, unknown>): unknown;
  groupColumn?: string;
}

/** A child belongs to one parent key, or (many_to_many) to those its join rows name. */
type ChildKeys =
  | { parentKeyOfChild(child: Record<string, unknown>): unknown; parentKeys?: undefined }
  | { parentKeys(child: Record<string, unknown>, adapter: Adapter): unknown[]; parentKeyOfChild?: undefined };

export function distinct(values: unknown[]): unknown[] {
  const seen = new Map<string, unknown>();
  for (const value of values) if (value !== null && value !== undefined) seen.set(String(value), value);
  return [...seen.values()];
}

/**
 * `annotate: false` (one parent, as related endpoints have) leaves out what
 * only sorting children among several parents needs: a many_to_many's parent
 * ids per record.
 */
export function linkStrategy(
  relationship: RelationshipDefinition, parentResource: ResourceClass, parents: object[], related: ResourceClass, foreignKey = foreignKeyOf(relationship), annotate = true,
): LinkStrategy {
  const rows = parents as Array<Record<string, unknown>>;
  const pk = relationship.primaryKey;
  switch (relationship.kind) {
    case 'belongs_to':
    case 'polymorphic_belongs_to':
      return {
        keys: distinct(rows.map((p) => p[foreignKey])),
        link(scope, adapter) { return adapter.filter(scope, equalityClause(pk, this.keys)); },
        parentKeyOfChild: (child) => child[pk],
        parentKey: (parent) => parent[foreignKey],
      };
    case 'many_to_many': {
      const join: JoinTable = { table: relationship.joinTable!, parentKey: foreignKey, childKey: otherKeyOf(related), primaryKey: pk };
      return {
        keys: distinct(rows.map((p) => p[pk])),
        link(scope, adapter) { return adapter.filterThrough(scope, join, this.keys, annotate); },
        parentKeys: (child, adapter) => adapter.throughParentIds(child),
        parentKey: (parent) => parent[pk],
      };
    }
    case 'polymorphic_has_many': {
      const typeColumn = typeColumnOf(relationship);
      return {
        keys: distinct(rows.map((p) => p[pk])),
        link(scope, adapter) {
          const linked = adapter.filter(scope, equalityClause(foreignKey, this.keys));
          return adapter.filter(linked, equalityClause(typeColumn, [parentResource.type], 'string'));
        },
        parentKeyOfChild: (child) => child[foreignKey],
        parentKey: (parent) => parent[pk],
        groupColumn: foreignKey,
      };
    }
    default:
      return {
        keys: distinct(rows.map((p) => p[pk])),
        link(scope, adapter) { return adapter.filter(scope, equalityClause(foreignKey, this.keys)); },
        parentKeyOfChild: (child) => child[foreignKey],
        parentKey: (parent) => parent[pk],
        groupColumn: foreignKey,
      };
  }
}
