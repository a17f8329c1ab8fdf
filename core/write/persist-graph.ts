import { runHooks } from './run-hooks.ts';
import { withTransaction } from '../transaction.ts';
import { destroyRecord, persistNode } from './persist-node.ts';
import { WriteSession } from './write-session.ts';
import type { WriteNode } from './write-node.ts';

/**
 * persist: the whole graph in one transaction. Every record is loaded and its
 * guards checked before anything is saved; any invalid record, error or
 * failing `beforeCommit` rolls everything back. `prepare` runs first inside
 * the transaction, for writes whose graph depends on what the database holds
 * (a relationship replaced: its current members); models it sets on nodes
 * are not loaded again.
 */
export async function persistGraph(root: WriteNode, prepare?: () => Promise<void>): Promise<WriteSession> {
  const adapter = root.resource.adapterInstance();
  return adapter.transaction((transaction) =>
    withTransaction(transaction, async () => {
      const session = new WriteSession(transaction);
      await prepare?.();
      await session.loadModels(root);
      if (root.action === 'destroy') await destroyRecord(session, root);
      else await persistNode(session, root);
      session.throwIfInvalid();
      for (const node of session.processed) {
        const action = node.action === 'destroy' ? 'destroy' : node.action === 'create' ? 'create' : 'update';
        await runHooks(session.resourceFor(node), 'beforeCommit', action, node.model);
      }
      return session;
    }),
  );
}
