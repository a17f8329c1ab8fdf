import { unlessTransient } from '../adapter/transient-failure.ts';
import { context as currentContext, withContext, type MuralContext } from '../context.ts';
import { withDeadline } from '../deadline.ts';
import { MuralError, UnwritableError, ValidationFailed, type JsonApiErrorObject } from '../errors/index.ts';
import type { QueryParams } from '../query-params.ts';
import { prepareResources } from '../relationships/prepare.ts';
import type { JsonApiDocument } from '../render/document.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { persistWrite, type WriteTarget } from './persist-write.ts';
import { renderWrite } from './render-write.ts';
import { withTrashed } from './trashed-target.ts';
import type { WriteNode } from './write-node.ts';
import { versionOf } from '../conditional/version.ts';
import { withOwnWrites } from '../transaction.ts';

export type { WriteTarget } from './persist-write.ts';

/**
 * A pending write: `save()` parses the payload, persists the graph in one
 * transaction and reports whether it worked. Validation failures (422) land
 * in `errors`; malformed payloads (400), conflicts (409) and missing records
 * (404) are thrown, as they are the caller's mistake rather than the data's.
 */
export class WriteProxy<Model = unknown> {
  errors: JsonApiErrorObject[] = [];
  private root?: WriteNode;
  private readonly capturedContext: MuralContext | undefined = currentContext();

  constructor(
    readonly resourceClass: typeof ResourceBase,
    readonly payload: unknown,
    readonly target: WriteTarget,
    readonly params: QueryParams = {},
  ) {}

  /** The written model, once saved. */
  get data(): Model | undefined {
    return this.root?.model as Model | undefined;
  }

  /** The written record's version once saved (what its ETag carries); undefined when its Resource declares none or it was destroyed. */
  get version(): string | undefined {
    const root = this.root;
    if (!root?.model || root.action === 'destroy') return undefined;
    return versionOf(root.resource, root.model);
  }

  /**
   * Runs the write in one transaction. `true` once committed; `false` when a record is
   * invalid, with the 422 error objects in `errors`.
   */
  async save(): Promise<boolean> {
    const run = () => withDeadline(() => this.execute());
    return this.capturedContext ? withContext(this.capturedContext, run) : run();
  }

  /**
   * The document the HTTP endpoint answers for the saved write: the written record, its
   * sideposted records in `included`, each new one with its `temp-id`.
   */
  async toJsonapi(): Promise<JsonApiDocument> {
    if (!this.root) throw new Error('save() the write before rendering it');
    if (this.target.action === 'destroy') return { data: null, meta: {} };
    const root = this.root;
    // not unlessTransient: the write has committed, and a 503 would tell the client to send it again;
    // answering it gets a time limit of its own, so a slow re-read is never reported as a failed write;
    // its reads must see the write, which a read replica may not have replayed yet
    const run = () => withDeadline(() => withOwnWrites(() => renderWrite(root, this.params)), { fresh: true });
    return this.capturedContext ? withContext(this.capturedContext, run) : run();
  }

  private async execute(): Promise<boolean> {
    prepareResources();
    let root: WriteNode;
    try {
      root = await persistWrite(this.resourceClass, this.payload, withTrashed(this.resourceClass, this.target, this.params));
    } catch (error) {
      if (error instanceof ValidationFailed || error instanceof UnwritableError) {
        this.errors = (error as MuralError).toJsonapiErrors();
        return false;
      }
      throw unlessTransient(this.resourceClass, error);
    }
    this.root = root;
    this.errors = [];
    return true;
  }
}
