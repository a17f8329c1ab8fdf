/** What deleting a referenced row does to the rows referring to it. */
export type OnDelete = 'CASCADE' | 'RESTRICT' | 'SET NULL';

/**
 * A column's foreign-key constraint: the table whose `id` it refers to, and
 * what deleting that row does (docs/decisions.md, "The example's foreign
 * keys", says why each column has the behaviour it has). Declared on the
 * column rather than through the association, so one place states it and
 * the associations (several per key) add nothing.
 */
export function references(table: string, onDelete: OnDelete) {
  return { references: { model: table, key: 'id' }, onDelete, onUpdate: 'CASCADE' } as const;
}
