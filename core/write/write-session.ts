import { equalityClause, type Adapter } from '../adapter/adapter.ts';
import { RecordNotFound, UnwritableError, ValidationFailed, type RecordLocation, type ValidationIssue } from '../errors/index.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { versionAttributeOf } from '../conditional/version.ts';
import { checkPrecondition } from './check-precondition.ts';
import { LinkedVersions } from './linked-versions.ts';
import { placedIssue } from './issue-placement.ts';
import { attributeWritable } from './writable.ts';
import type { WriteNode } from './write-node.ts';

/**
 * The state of one write inside its transaction: a Resource instance per
 * record, the problems found so far, and the records processed (for
 * `beforeCommit`). Loading happens before anything is saved, so refused
 * guards and missing records stop the write before it changes anything.
 */
export class WriteSession {
  readonly issues: Array<{ location: RecordLocation; issue: ValidationIssue }> = [];
  readonly processed: WriteNode[] = [];
  /** The other side of the links the write changes, whose versions move at its end. */
  readonly linked = new LinkedVersions();
  private readonly instances = new Map<WriteNode, ResourceBase>();

  constructor(readonly transaction: unknown) {}

  resourceFor(node: WriteNode): ResourceBase {
    let instance = this.instances.get(node);
    if (!instance) this.instances.set(node, (instance = new node.resource()));
    return instance;
  }

  adapterFor(node: WriteNode): Adapter {
    return this.resourceFor(node).adapter;
  }

  /** Finds or builds every record of the graph and checks model-dependent writable guards. */
  async loadModels(node: WriteNode, seen = new Set<WriteNode>()): Promise<void> {
    if (seen.has(node)) return;
    seen.add(node);
    const resource = this.resourceFor(node);
    node.model ??= node.action === 'create' ? await resource.build(resource.resourceClass.model) : await this.findExisting(node);
    if (node.action !== 'create') checkPrecondition(node, node.model);
    for (const name of node.guardedAttributes) {
      if (!attributeWritable(resource, name, node.model)) {
        throw new UnwritableError('attribute', name, node.resource.type, `${node.location.pointer ?? ''}/attributes/${name}`);
      }
    }
    for (const relationship of node.relationships) for (const item of relationship.items) await this.loadModels(item, seen);
  }

  /**
   * A versioned record, or one the write is conditional on, is locked as it
   * is read (in the same query): a concurrent write to it waits for this one,
   * then reads the version this one leaves, so two writes conditional on the
   * same version cannot both pass, and unconditional ones never trip over
   * the adapter's own optimistic lock.
   */
  private async findExisting(node: WriteNode): Promise<object> {
    const resource = this.resourceFor(node);
    const adapter = resource.adapter;
    const filtered = adapter.filter(resource.baseScope(), equalityClause('id', [node.key ?? node.id], 'integer_id'));
    const lock = adapter.lockForUpdate && (node.precondition !== undefined || versionAttributeOf(node.resource) !== undefined);
    const scope = lock ? adapter.lockForUpdate!(filtered) : filtered;
    const [model] = (await resource.resolve(scope)) as object[];
    if (!model) throw new RecordNotFound(node.resource.type, node.id, { pointer: node.location.pointer ?? node.location.identifier });
    return model;
  }

  addProblems(node: WriteNode, problems: ReadonlyArray<ValidationIssue>): void {
    for (const issue of problems) this.issues.push({ location: node.location, issue: placedIssue(node.resource, issue) });
  }

  throwIfInvalid(): void {
    if (this.issues.length > 0) throw new ValidationFailed(this.issues);
  }
}
