import type { IfMatch } from '../conditional/entity-tags.ts';
import { assertAllowed } from '../resource/resource-guard.ts';
import { servedResources } from '../resource/polymorphism.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { checkGuards } from './check-guards.ts';
import { coerceId } from './coerce-id.ts';
import { parsePayload } from './parse-payload.ts';
import { persistGraph } from './persist-graph.ts';
import type { WriteBatch } from './write-batch.ts';
import type { Trashed } from '../resource/soft-delete.ts';
import type { Precondition, WriteNode } from './write-node.ts';

type ResourceClass = typeof ResourceBase;

/** Which write a `WriteProxy` makes: a create, or an update or destroy of the record with `id`. */
export interface WriteTarget {
  action: 'create' | 'update' | 'destroy';
  id?: string;
  /**
   * For update and destroy: the record's versions the write is conditional on
   * (HTTP's `If-Match`), or `'*'`. A stale version is a PreconditionFailed
   * (412), checked inside the write's transaction with the record locked.
   */
  ifMatch?: IfMatch;
  /** Where a failed `ifMatch` points: the `If-Match` header, unless it came from elsewhere (an atomic operation's `ref.meta.version`). */
  ifMatchSource?: Precondition['source'];
  /**
   * For update and destroy: versions the record must not be at (HTTP's
   * `If-None-Match`), or `'*'`, which fails whenever the record exists.
   */
  ifNoneMatch?: IfMatch;
  /** For update and destroy of a soft-deleting Resource: whether the record may be (or must be) in the trash. Default: live records only. */
  trashed?: Trashed;
}

/**
 * One write of a record and its sideposted graph, from payload to saved
 * models: the Resource's guard, the payload parsed, guards that need no
 * record, then the graph persisted (in `batch`'s transaction when given, in
 * its own otherwise). Every refusal is thrown; the written graph is returned.
 */
export async function persistWrite(resourceClass: ResourceClass, payload: unknown, target: WriteTarget, batch?: WriteBatch): Promise<WriteNode> {
  const root = parseWrite(resourceClass, payload, target);
  if (target.action !== 'destroy') checkGuards(root, target.action);
  await persistGraph(root, { batch });
  return root;
}

function parseWrite(resourceClass: ResourceClass, payload: unknown, target: WriteTarget): WriteNode {
  const root = parseRoot(resourceClass, payload, target);
  // the header, where given, rules over the primary record's meta.version
  if (root.action !== 'create') root.precondition = conditionOf(target, root.precondition);
  if (target.trashed) root.trashed = target.trashed;
  return root;
}

/** A write's conditions: the target's, else what the payload's `meta.version` said. */
export function conditionOf(target: Pick<WriteTarget, 'ifMatch' | 'ifMatchSource' | 'ifNoneMatch'>, own?: Precondition): Precondition | undefined {
  const matched = target.ifMatch !== undefined ? { ifMatch: target.ifMatch, source: target.ifMatchSource ?? { header: 'If-Match' } } : own;
  if (target.ifNoneMatch === undefined) return matched;
  return { ...(matched ?? { source: { header: 'If-Match' } }), ifNoneMatch: target.ifNoneMatch };
}

function parseRoot(resourceClass: ResourceClass, payload: unknown, target: WriteTarget): WriteNode {
  // the Resource's own guard first, before the payload is read or a record looked up; the record
  // behind a polymorphic parent's update or destroy may be any child, so each must allow it
  const guarded = target.action === 'create' ? [resourceClass] : servedResources(resourceClass);
  assertAllowed(guarded, target.action, resourceClass.type);
  if (target.action === 'destroy') {
    const id = target.id;
    return {
      resource: resourceClass, action: 'destroy', id, key: id === undefined ? undefined : coerceId(resourceClass, id),
      attributes: {}, guardedAttributes: [], relationships: [], location: { pointer: null },
    };
  }
  return parsePayload(payload, { resource: resourceClass, action: target.action, id: target.id });
}
