import { graphRefusal } from './constraint-refusal.ts';
import { destroyRecord, persistNode } from './persist-node.ts';
import { WriteBatch } from './write-batch.ts';
import { WriteSession } from './write-session.ts';
import type { WriteNode } from './write-node.ts';

export interface PersistOptions {
  /**
   * Runs first inside the transaction, for writes whose graph depends on
   * what the database holds (a relationship replaced: its current members);
   * models it sets on nodes are not loaded again.
   */
  prepare?: () => Promise<void>;
  /** The transaction to persist in, shared with other writes; by default the write opens its own. */
  batch?: WriteBatch;
}

/**
 * persist: the whole graph in one transaction. Every record is loaded and its
 * guards checked before anything is saved; any invalid record, error or
 * failing `beforeCommit` rolls everything back, in a batch the other writes
 * of the batch too.
 */
export function persistGraph(root: WriteNode, options: PersistOptions = {}): Promise<WriteSession> {
  const { batch } = options;
  if (batch) return persistIn(batch, root, options.prepare);
  return WriteBatch.run(root.resource, (own) => persistIn(own, root, options.prepare));
}

async function persistIn(batch: WriteBatch, root: WriteNode, prepare?: () => Promise<void>): Promise<WriteSession> {
  const session = new WriteSession(batch.transaction);
  await prepare?.();
  await session.loadModels(root);
  try {
    if (root.action === 'destroy') await destroyRecord(session, root);
    else await persistNode(session, root);
  } catch (error) {
    throw graphRefusal(session.adapterFor(root), error, root) ?? error;
  }
  session.throwIfInvalid();
  await session.assertWrittenAdmitted();
  await session.linked.apply(session.processed, batch.transaction);
  for (const node of session.processed) batch.committed(session.resourceFor(node), node);
  return session;
}
