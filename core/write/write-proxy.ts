import { unlessTransient } from '../adapter/transient-failure.ts';
import { context as currentContext, withContext, type MuralContext } from '../context.ts';
import { withDeadline } from '../deadline.ts';
import { MuralError, UnwritableError, ValidationFailed, type JsonApiErrorObject } from '../errors/index.ts';
import type { QueryParams } from '../query-params.ts';
import { prepareResources } from '../relationships/prepare.ts';
import type { JsonApiDocument } from '../render/document.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { coerceId } from './coerce-id.ts';
import { parsePayload, type PayloadTarget } from './parse-payload.ts';
import { persistGraph } from './persist-graph.ts';
import { renderWrite } from './render-write.ts';
import type { WriteNode } from './write-node.ts';
import type { IfMatch } from '../conditional/entity-tags.ts';
import { versionOf } from '../conditional/version.ts';
import { assertAllowed } from '../resource/resource-guard.ts';
import { checkGuards } from './check-guards.ts';
import { servedResources } from '../resource/polymorphism.ts';

export interface WriteTarget {
  action: 'create' | 'update' | 'destroy';
  id?: string;
  /**
   * For update and destroy: the record's versions the write is conditional on
   * (HTTP's `If-Match`), or `'*'`. A stale version is a PreconditionFailed
   * (412), checked inside the write's transaction with the record locked.
   */
  ifMatch?: IfMatch;
}

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

  async save(): Promise<boolean> {
    const run = () => withDeadline(() => this.execute());
    return this.capturedContext ? withContext(this.capturedContext, run) : run();
  }

  async toJsonapi(): Promise<JsonApiDocument> {
    if (!this.root) throw new Error('save() the write before rendering it');
    if (this.target.action === 'destroy') return { data: null, meta: {} };
    const root = this.root;
    // not unlessTransient: the write has committed, and a 503 would tell the client to send it again;
    // answering it gets a time limit of its own, so a slow re-read is never reported as a failed write
    const run = () => withDeadline(() => renderWrite(root, this.params), { fresh: true });
    return this.capturedContext ? withContext(this.capturedContext, run) : run();
  }

  private async execute(): Promise<boolean> {
    prepareResources();
    let root: WriteNode;
    try {
      root = this.parse();
      if (this.target.action !== 'destroy') checkGuards(root, this.target.action);
      await persistGraph(root);
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

  private parse(): WriteNode {
    const root = this.parseRoot();
    const ifMatch = this.target.ifMatch;
    // the header, where given, rules over the primary record's meta.version
    if (ifMatch !== undefined && root.action !== 'create') root.precondition = { ifMatch, source: { header: 'If-Match' } };
    return root;
  }

  private parseRoot(): WriteNode {
    // the Resource's own guard first, before the payload is read or a record looked up; the record
    // behind a polymorphic parent's update or destroy may be any child, so each must allow it
    const guarded = this.target.action === 'create' ? [this.resourceClass] : servedResources(this.resourceClass);
    assertAllowed(guarded, this.target.action, this.resourceClass.type);
    if (this.target.action === 'destroy') {
      const id = this.target.id;
      return {
        resource: this.resourceClass, action: 'destroy', id, key: id === undefined ? undefined : coerceId(this.resourceClass, id),
        attributes: {}, guardedAttributes: [],
        relationships: [], location: { pointer: null },
      };
    }
    return parsePayload(this.payload, { resource: this.resourceClass, action: this.target.action, id: this.target.id } satisfies PayloadTarget);
  }
}
