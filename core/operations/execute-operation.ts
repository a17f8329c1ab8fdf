import { ConflictError } from '../errors/index.ts';
import { persistRelationship } from '../related/relationship-write.ts';
import type { ResourceObject } from '../render/record-serializer.ts';
import type { WriteBatch } from '../write/write-batch.ts';
import { persistWrite, type WriteTarget } from '../write/persist-write.ts';
import { renderWrite } from '../write/render-write.ts';
import type { WriteNode } from '../write/write-node.ts';
import type { LocalIds } from './local-ids.ts';
import { linkageWithIds, resourceObjectWithIds } from './operation-payload.ts';
import type { AtomicResult } from './operation-types.ts';
import type { OperationTarget, ParsedOperation } from './parse-operations.ts';

/**
 * Runs one operation in the batch's transaction, through the engines the
 * Resource and relationship endpoints use (their guards, hooks and
 * validations), and answers its result. Errors are thrown with pointers
 * relative to the operation.
 */
export async function executeOperation(operation: ParsedOperation, batch: WriteBatch, lids: LocalIds): Promise<AtomicResult> {
  const { resource } = operation;
  switch (operation.kind) {
    case 'create': {
      const root = await persistWrite(resource, { data: resourceObjectWithIds(operation.data, lids) }, { action: 'create' }, batch);
      if (operation.lid !== undefined) lids.assign(operation.lid, String((root.model as { id?: unknown }).id));
      return { data: await rendered(root, operation.lid) };
    }
    case 'update': {
      const id = updatedId(operation, lids);
      const root = await persistWrite(resource, { data: resourceObjectWithIds(operation.data, lids) }, { action: 'update', id, ...condition(operation.ref) }, batch);
      return { data: await rendered(root) };
    }
    case 'destroy':
      await persistWrite(resource, undefined, { action: 'destroy', id: idOf(operation.ref, lids), ...condition(operation.ref) }, batch);
      return {};
    case 'relationship':
      await persistRelationship(resource, idOf(operation.ref, lids), operation.name, operation.operation, { data: linkageWithIds(operation.data, lids) }, {
        batch, ...condition(operation.ref),
      });
      return {};
  }
}

/** `ref.meta.version` as the write's precondition (an update's `data.meta.version` is read by the write engine itself). */
function condition(target: OperationTarget | undefined): Pick<WriteTarget, 'ifMatch' | 'ifMatchSource'> {
  const precondition = target?.condition;
  return precondition ? { ifMatch: precondition.ifMatch, ifMatchSource: precondition.source } : {};
}

function idOf(target: OperationTarget, lids: LocalIds): string {
  return target.lid === undefined ? target.id! : lids.resolve(target.lid);
}

/** The record an update names by `ref`, by `data.lid`, or (checked by the write engine against `ref`) by `data.id`. */
function updatedId(operation: Extract<ParsedOperation, { kind: 'update' }>, lids: LocalIds): string | undefined {
  const { ref, named, data } = operation;
  const byRef = ref && idOf(ref, lids);
  const byLid = named && idOf(named, lids);
  if (byRef !== undefined && byLid !== undefined && byRef !== byLid) {
    throw new ConflictError(`data.lid "${named!.lid}" is not the record ref names`, { pointer: named!.pointer });
  }
  const id = byRef ?? byLid;
  if (id !== undefined) return id;
  return typeof data.id === 'string' || typeof data.id === 'number' ? String(data.id) : undefined;
}

/** The written record as `show` renders it (no include), with the `lid` its `add` gave it. */
async function rendered(root: WriteNode, lid?: string): Promise<ResourceObject & { lid?: string }> {
  const document = await renderWrite({ ...root, relationships: [] }, {});
  const data = document.data as ResourceObject;
  return lid === undefined ? data : { ...data, lid };
}
