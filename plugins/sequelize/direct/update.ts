import { OptimisticLockError, Utils, type Model, type Transaction } from 'sequelize';
import { markSaved, runWrite, timestamp, writesDirectly, type ModelInternals, type RecordInternals } from './write.ts';

/** Hooks `Model.save` runs around an UPDATE. */
const UPDATE_HOOKS = ['beforeUpdate', 'afterUpdate', 'beforeSave', 'afterSave'];

/** Whether `record.save()` would be a plain UPDATE (or nothing) that Mural can send through the driver itself. */
export function canUpdateDirectly(record: Model, transaction: unknown): transaction is Transaction {
  const instance = record as unknown as RecordInternals;
  if (instance.isNewRecord) return false;
  // without its key, `save` refuses the record with its own error
  const keys = (record.constructor as unknown as ModelInternals).primaryKeyAttributes;
  return keys.length > 0 && keys.every((key) => instance.dataValues[key] !== undefined) && writesDirectly(record, transaction, UPDATE_HOOKS);
}

/**
 * What `record.save({ transaction, validate: false })` does for a loaded
 * record `canUpdateDirectly` accepts: the changed columns, `updatedAt` and
 * the next version written by Sequelize's own UPDATE (the version checked in
 * its WHERE, an OptimisticLockError when no row matched), the same log line
 * and errors, and nothing at all when nothing changed.
 */
export async function updateDirectly(record: Model, transaction: Transaction): Promise<Model> {
  const model = record.constructor as unknown as ModelInternals;
  const instance = record as unknown as RecordInternals;
  const changed = instance.changed() || [];
  const fields = changed.filter((name) => Object.prototype.hasOwnProperty.call(model.rawAttributes, name));
  const updatedAt = model._timestampAttributes.updatedAt;
  const versionAttribute = model._versionAttribute;
  if (fields.length > 0 && updatedAt && !fields.includes(updatedAt)) fields.push(updatedAt);
  if (fields.length > 0 && versionAttribute && !fields.includes(versionAttribute)) fields.push(versionAttribute);
  if (updatedAt && fields.includes(updatedAt)) instance.dataValues[updatedAt] = timestamp(record, updatedAt);
  // as `save`: no column to write, or nothing changed, and no statement at all
  if (!fields.some((field) => !model._virtualAttributes.has(field)) || !instance.changed()) return record;
  const values = Utils.mapValueFieldNames(instance.dataValues, fields, model as never) as Record<string, unknown>;
  const where = instance.where(true);
  const versionField = versionAttribute ? (model.rawAttributes[versionAttribute]?.field ?? versionAttribute) : undefined;
  if (versionField) values[versionField] = Number.parseInt(String(values[versionField]), 10) + 1;
  const generated = model.queryGenerator.updateQuery(model.getTableName(), values, where, {}, model.rawAttributes);
  if (!generated) return record;
  const written = await runWrite(record, transaction, 'UPDATE', generated.query, generated.bind ?? []);
  if (versionAttribute && versionField) {
    if (written.changes < 1) throw new OptimisticLockError({ modelName: model.name, values, where } as never);
    instance.dataValues[versionAttribute] = values[versionField];
  }
  return markSaved(record, fields);
}
