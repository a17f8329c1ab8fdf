import type { ResourceBase } from '../resource/resource-base.ts';
import { withTransaction } from '../transaction.ts';
import { runHooks } from './run-hooks.ts';
import type { WriteNode } from './write-node.ts';

type ResourceClass = typeof ResourceBase;

interface Committing {
  readonly resource: ResourceBase;
  readonly node: WriteNode;
  readonly step: number;
}

/**
 * One transaction that one write, or several in a row (atomic operations),
 * persist in. Each write's records join `committing` as they are saved;
 * their `beforeCommit` hooks run once every write is done, just before the
 * one commit, so a hook sees what the whole batch wrote. Opened through the
 * adapter of the first Resource written, so on SQLite it waits its turn in
 * the same write queue as every other write.
 */
export class WriteBatch {
  /** Which write of the batch runs now: a failing `beforeCommit` hook names the write its record came from. */
  step = 0;
  private readonly committing: Committing[] = [];

  private constructor(readonly transaction: unknown, readonly resourceClass: ResourceClass) {}

  /** Runs `writes` in a new transaction: committed when they resolve and every `beforeCommit` hook passes, rolled back otherwise. */
  static run<T>(resourceClass: ResourceClass, writes: (batch: WriteBatch) => Promise<T>): Promise<T> {
    return resourceClass.adapterInstance().transaction((transaction) =>
      withTransaction(transaction, async () => {
        const batch = new WriteBatch(transaction, resourceClass);
        const result = await writes(batch);
        await batch.beforeCommit();
        return result;
      }),
    );
  }

  /** Whether records of `resourceClass` can be written inside this batch's transaction (the same database). */
  accepts(resourceClass: ResourceClass): boolean {
    const adapter = resourceClass.adapterInstance();
    if (adapter.constructor !== this.resourceClass.adapterInstance().constructor) return false;
    return adapter.joins?.(this.transaction) ?? true;
  }

  committed(resource: ResourceBase, node: WriteNode): void {
    this.committing.push({ resource, node, step: this.step });
  }

  private async beforeCommit(): Promise<void> {
    for (const { resource, node, step } of this.committing) {
      this.step = step;
      const action = node.action === 'destroy' ? 'destroy' : node.action === 'create' ? 'create' : 'update';
      await runHooks(resource, 'beforeCommit', action, node.model);
    }
  }
}
