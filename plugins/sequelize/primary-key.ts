import { UniqueConstraintError, type Model, type ModelStatic } from 'sequelize';

/**
 * MySQL and MariaDB name a duplicate primary key by its index, `PRIMARY`,
 * where SQLite and PostgreSQL name the column: the error names the model's
 * primary key attribute instead, so a clash on a client-generated id reads
 * the same on every database (core answers it with a 409).
 */
export function primaryKeyNamed(record: Model, error: unknown): unknown {
  if (!(error instanceof UniqueConstraintError)) return error;
  const key = (record.constructor as ModelStatic<Model>).primaryKeyAttribute;
  for (const item of error.errors) if (item.path === 'PRIMARY') (item as { path: string | null }).path = key;
  return error;
}

/**
 * A new record's primary key as a write gives it (a client-generated id):
 * `Model.set` leaves a key that already holds a value (a `defaultValue`
 * such as `UUIDV4`) as it is, so the given one is set directly.
 */
export function assignNewKey(record: Model, attributes: Record<string, unknown>): void {
  const key = (record.constructor as ModelStatic<Model>).primaryKeyAttribute;
  if (record.isNewRecord && Object.hasOwn(attributes, key) && attributes[key] !== undefined) record.setDataValue(key as never, attributes[key] as never);
}
