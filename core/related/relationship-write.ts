import { unlessTransient } from '../adapter/transient-failure.ts';
import { context as currentContext, withContext, type MuralContext } from '../context.ts';
import { withDeadline } from '../deadline.ts';
import { withOwnWrites } from '../transaction.ts';
import { dictionary } from '../dictionary.ts';
import { UnwritableError, ValidationFailed, type JsonApiErrorObject, type MuralError } from '../errors/index.ts';
import { prepareResources } from '../relationships/prepare.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import type { LoadedRecord } from '../sideload/include-graph.ts';
import { checkGuards } from '../write/check-guards.ts';
import { coerceId } from '../write/coerce-id.ts';
import { persistGraph } from '../write/persist-graph.ts';
import type { WriteBatch } from '../write/write-batch.ts';
import { conditionOf, type WriteTarget } from '../write/persist-write.ts';
import type { WriteNode } from '../write/write-node.ts';
import type { IfMatch } from '../conditional/entity-tags.ts';
import { versionAttributeOf } from '../conditional/version.ts';
import { writableRelationship, type RelationshipOperation } from './find-relationship.ts';
import { readMembers } from './members.ts';
import { parseLinkage } from './parse-linkage.ts';
import { prepareMembers, type RelationshipWritePlan } from './prepare-members.ts';
import { relatedTarget } from './related-target.ts';

/**
 * A pending write to `{ns}/{type}/{id}/relationships/{name}`: `replace`
 * (PATCH) sets a to-one relationship or replaces every member of a to-many
 * one, `add` (POST) and `remove` (DELETE) change some members. It is an
 * update of the parent whose relationship carries the members to associate
 * and disassociate, run by the write engine sideposting uses: the same
 * guards, hooks (the parent's and each changed member's), one transaction,
 * all or nothing, and on SQLite the same write queue.
 *
 * As with WriteProxy, `save()` resolves false with `errors` for a 422 and
 * throws for 400, 403, 404 and 409.
 */
export class RelationshipWrite {
  errors: JsonApiErrorObject[] = [];
  private written?: RelationshipWritePlan;
  private readonly capturedContext: MuralContext | undefined = currentContext();

  constructor(
    readonly resourceClass: typeof ResourceBase,
    readonly id: string,
    readonly name: string,
    readonly operation: RelationshipOperation,
    readonly payload: unknown,
    /** The parent's versions the write is conditional on (HTTP's `If-Match`), or `'*'`: see WriteTarget. */
    readonly options: { ifMatch?: IfMatch; ifNoneMatch?: IfMatch } = {},
  ) {}

  save(): Promise<boolean> {
    return this.run(() => withDeadline(() => this.execute()));
  }

  /**
   * Once saved: whether the relationship now holds exactly what the request
   * asked (JSON:API's 204 No Content). It may not, when a `params` block
   * hides a member just associated (an inactive position set as
   * `current_position`) or a hook changed a key; the server then answers with
   * the relationship's linkage. One query.
   */
  async asRequested(): Promise<boolean> {
    const plan = this.written;
    if (!plan) throw new Error('save() the write before asking for its result');
    // not unlessTransient, and a time limit of its own: the write has committed
    // and it reads the write it checks, which a read replica may not have replayed yet
    return this.run(() => withDeadline(() => withOwnWrites(() => compare(plan)), { fresh: true }));
  }

  private run<R>(fn: () => R): R {
    return this.capturedContext ? withContext(this.capturedContext, fn) : fn();
  }

  private async execute(): Promise<boolean> {
    prepareResources();
    try {
      this.written = await persistRelationship(this.resourceClass, this.id, this.name, this.operation, this.payload, this.options);
    } catch (error) {
      if (error instanceof ValidationFailed || error instanceof UnwritableError) {
        this.errors = (error as MuralError).toJsonapiErrors();
        return false;
      }
      throw unlessTransient(this.resourceClass, error);
    }
    this.errors = [];
    return true;
  }
}

/** How a relationship write runs: in a batch's transaction, and conditional on the parent's version. */
export interface RelationshipWriteOptions extends Pick<WriteTarget, 'ifMatch' | 'ifMatchSource' | 'ifNoneMatch'> {
  batch?: WriteBatch;
}

/**
 * One relationship write, from payload to saved models: everything that
 * needs no query (the parent's guard, the relationship, the body), then the
 * members prepared and persisted by the write engine, in `options.batch`'s
 * transaction when given. `options.ifMatch` makes it conditional on the
 * parent's version (see WriteTarget). Every refusal is thrown.
 */
export async function persistRelationship(
  parentClass: typeof ResourceBase, id: string, name: string, operation: RelationshipOperation, payload: unknown,
  options: RelationshipWriteOptions = {},
): Promise<RelationshipWritePlan> {
  const definition = writableRelationship(parentClass, name, operation);
  const linkage = parseLinkage(payload, definition);
  const root: WriteNode = {
    resource: parentClass, action: 'update', id, key: coerceId(parentClass, id),
    attributes: dictionary(), guardedAttributes: [], location: { pointer: null },
    relationships: [{ definition, pointer: '', items: [...linkage.items], clear: linkage.clear }],
    // its relationships are part of the parent's representation: changing them is a new version of it
    touch: versionAttributeOf(parentClass) !== undefined,
  };
  root.precondition = conditionOf(options);
  const plan: RelationshipWritePlan = { parentClass, root, operation, linkage };
  checkGuards(root, 'update');
  await persistGraph(root, { prepare: () => prepareMembers(plan), batch: options.batch });
  return plan;
}

async function compare(plan: RelationshipWritePlan): Promise<boolean> {
  const { root, linkage, operation } = plan;
  const target = relatedTarget(root.relationships[0]!.definition, { record: root.model!, resource: root.resource }, {});
  const asked = linkage.items.map((item) => `${item.resource.type}:${String(item.key)}`);
  const keys = linkage.items.map((item) => item.key);
  if (operation === 'replace') return sameSet(await readMembers(target, { limit: asked.length + 1 }), asked);
  const found = await readMembers(target, { keys, limit: keys.length });
  return operation === 'add' ? sameSet(found, asked) : found.length === 0;
}

function sameSet(members: readonly LoadedRecord[], asked: readonly string[]): boolean {
  const found = new Set(members.map(({ record, resource }) => `${resource.type}:${String((record as { id?: unknown }).id)}`));
  return found.size === asked.length && asked.every((identity) => found.has(identity));
}
