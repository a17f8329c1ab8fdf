import type { Model, ModelStatic, Transaction } from 'sequelize';
import type { RecordSelection } from '../../core/index.ts';
import { linkedChildren } from './join-rows.ts';
import { quotedIdentifier } from './quoted-names.ts';

interface TimestampedModel {
  _timestampAttributes?: { updatedAt?: string | false };
}

function updatedAtOf(model: ModelStatic<Model>, versionAttribute: string): string | undefined {
  const updatedAt = (model as unknown as TimestampedModel)._timestampAttributes?.updatedAt;
  return updatedAt && updatedAt !== versionAttribute ? updatedAt : undefined;
}

/** A version column holding a time moves to the write's time; any other counts up. */
function isTimestamp(model: ModelStatic<Model>, attribute: string): boolean {
  const type = model.getAttributes()[attribute]?.type as { key?: string } | undefined;
  return type?.key === 'DATE' || type?.key === 'DATEONLY';
}

function fieldOf(model: ModelStatic<Model>, attribute: string): string {
  return model.getAttributes()[attribute]?.field ?? attribute;
}

function tableOf(model: ModelStatic<Model>): string {
  const generator = (model.sequelize!.getQueryInterface() as unknown as { queryGenerator: { quoteTable(table: unknown): string } }).queryGenerator;
  return generator.quoteTable(model.getTableName());
}

/**
 * One UPDATE giving the selected rows a new version (and update time):
 * `version = version + 1`, or the write's time for a timestamp version.
 * Keys are sorted so that concurrent writes lock shared rows in one order.
 */
export async function bumpVersions(
  model: ModelStatic<Model>, versionAttribute: string, selection: RecordSelection, at: Date, transaction: Transaction,
): Promise<void> {
  const q = (name: string) => quotedIdentifier(model, name);
  const version = q(fieldOf(model, versionAttribute));
  const timestamp = isTimestamp(model, versionAttribute);
  const sets = [timestamp ? `${version} = ?` : `${version} = ${version} + 1`];
  const replacements: unknown[] = timestamp ? [at] : [];
  const updatedAt = updatedAtOf(model, versionAttribute);
  if (updatedAt) {
    sets.push(`${q(fieldOf(model, updatedAt))} = ?`);
    replacements.push(at);
  }
  const column = q(fieldOf(model, selection.column));
  let where: string;
  if ('keys' in selection) {
    if (selection.keys.length === 0) return;
    const keys = [...selection.keys].sort(byKey);
    where = `${column} IN (${keys.map(() => '?').join(', ')})`;
    replacements.push(...keys);
  } else {
    const linked = linkedChildren(model, selection.linkedThrough, selection.parentId, selection.keep);
    where = `${column} IN (${linked.sql})`;
    replacements.push(...linked.replacements);
  }
  await model.sequelize!.query(`UPDATE ${tableOf(model)} SET ${sets.join(', ')} WHERE ${where}`, { replacements, transaction });
}

/** The same change on a record in memory, left unchanged as far as its next save is concerned. */
export function bumpLoadedVersion(record: Model, versionAttribute: string, at: Date): void {
  const model = record.constructor as ModelStatic<Model>;
  const current = record.getDataValue(versionAttribute as never) as unknown;
  const next = isTimestamp(model, versionAttribute) ? at : Number(current ?? 0) + 1;
  const updatedAt = updatedAtOf(model, versionAttribute);
  const previous = (record as unknown as { _previousDataValues: Record<string, unknown> })._previousDataValues;
  for (const [attribute, value] of [[versionAttribute, next], ...(updatedAt ? [[updatedAt, at]] : [])] as Array<[string, unknown]>) {
    record.setDataValue(attribute as never, value as never);
    previous[attribute] = value;
  }
}

function byKey(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}
