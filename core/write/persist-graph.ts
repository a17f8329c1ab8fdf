import { runHooks } from './run-hooks.ts';
import { withTransaction } from './transaction-context.ts';
import { destroyRecord, persistNode } from './persist-node.ts';
import { WriteSession } from './write-session.ts';
import type { WriteNode } from './write-node.ts';

/**
 * persist: the whole graph in one transaction. Every record is loaded and its
 * guards checked before anything is saved; any invalid record, error or
 * failing `beforeCommit` rolls everything back.
 */
export async function persistGraph(root: WriteNode): Promise<WriteSession> {
  const adapter = root.resource.adapterInstance();
  return adapter.transaction((transaction) =>
    withTransaction(transaction, async () => {
      const session = new WriteSession(transaction);
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
