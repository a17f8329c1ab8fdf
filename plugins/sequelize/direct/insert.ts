import { Utils, type Model, type Transaction } from 'sequelize';
import { markSaved, runWrite, timestamp, writesDirectly, type ModelInternals, type RecordInternals, type Written } from './write.ts';

/** Hooks `Model.save` runs around an INSERT. */
const CREATE_HOOKS = ['beforeCreate', 'afterCreate', 'beforeSave', 'afterSave'];

/** Whether `record.save()` would be a plain INSERT that Mural can send through the driver itself. */
export function canInsertDirectly(record: Model, transaction: unknown): transaction is Transaction {
  return (record as unknown as RecordInternals).isNewRecord && writesDirectly(record, transaction, CREATE_HOOKS);
}

/**
 * What `record.save({ transaction, validate: false })` does for a record
 * `canInsertDirectly` accepts, without its per-call cost (deep option
 * copies, hook lookups, a captured and formatted stack trace per
 * statement): the same timestamps, the same SQL and bound values from
 * Sequelize's own query generator, the same generated key or returned row
 * on the instance, the same log line, and on failure the same Sequelize
 * error (unique violations, foreign keys, deadlocks).
 */
export async function insertDirectly(record: Model, transaction: Transaction): Promise<Model> {
  const model = record.constructor as unknown as ModelInternals;
  const instance = record as unknown as RecordInternals;
  const fields = Object.keys(model.rawAttributes);
  stampTimes(record, model, instance);
  const values = Utils.mapValueFieldNames(instance.dataValues, fields, model as never);
  const { query, bind = [] } = model.queryGenerator.insertQuery(model.getTableName(), values, model.rawAttributes, { returning: true });
  adopt(record, model, await runWrite(record, transaction, 'INSERT', query, bind));
  return markSaved(record, fields);
}

/** `createdAt` unless set, and `updatedAt`, as `save` stamps them. */
function stampTimes(record: Model, model: ModelInternals, instance: RecordInternals): void {
  const { createdAt, updatedAt } = model._timestampAttributes;
  if (!createdAt && !updatedAt) return;
  // createdAt and updatedAt of a new record are the same instant, as `save` stamps them
  const now = Utils.now(record.sequelize!.getDialect());
  if (updatedAt) instance.dataValues[updatedAt] = timestamp(record, updatedAt, now);
  if (createdAt && !instance.dataValues[createdAt]) instance.dataValues[createdAt] = timestamp(record, createdAt, now);
}

/** The returned row (PostgreSQL) or the generated key (SQLite, MySQL) on the instance, as Sequelize's query sets them. */
function adopt(record: Model, model: ModelInternals, written: Written): void {
  const instance = record as unknown as RecordInternals;
  if (written.row) {
    for (const [column, value] of Object.entries(written.row)) instance.dataValues[model.fieldRawAttributesMap[column]?.fieldName ?? column] = value;
    return;
  }
  const key = model.autoIncrementAttribute;
  if (key && written.insertId !== undefined && written.insertId !== null) (record as unknown as Record<string, unknown>)[key] = written.insertId;
}
