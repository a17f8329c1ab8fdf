import type { IfMatch } from '../conditional/entity-tags.ts';
import type { MuralErrorOptions, RecordLocation } from '../errors/index.ts';
import type { RelationshipDefinition } from '../resource/relationship-definition.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import type { Trashed } from '../resource/soft-delete.ts';

export type NodeAction = 'create' | 'update' | 'destroy' | 'disassociate';

/**
 * One record of a write, parsed and validated from the payload: what to do
 * with it, its coerced attributes, and the related records written with it.
 * The persist stage fills `model` as it goes.
 */
export interface WriteNode {
  resource: typeof ResourceBase;
  action: NodeAction;
  id?: string;
  /** `id` coerced by the Resource's id type: what queries compare. */
  key?: unknown;
  tempId?: string;
  /** A create whose `id` the client gave (`clientGeneratedIds`): where a clash with an existing record points. */
  clientId?: { pointer: string };
  attributes: Record<string, unknown>;
  /** Attributes whose writable guard needs the model, checked once it is loaded. */
  guardedAttributes: string[];
  /** Where this record's errors point and how they name it. */
  location: RecordLocation;
  relationships: WriteRelationship[];
  model?: object;
  /** Set when the record could not be saved, so its children are validated but not saved. */
  failed?: boolean;
  /** The versions the write is conditional on (`If-Match`, `meta.version`), and where a failure points. */
  precondition?: Precondition;
  /** Save the record with a new version even when nothing of it changed (a relationship write's parent). */
  touch?: boolean;
  /** The root of an update or destroy addressing trashed records (`filter[trashed]`); others are live records only. */
  trashed?: Trashed;
}

export interface Precondition {
  /** The versions the record must be at (`If-Match`, `meta.version`); `'*'`: it must exist. */
  ifMatch?: IfMatch;
  /** The versions it must not be at (`If-None-Match`); `'*'`: it must not exist. */
  ifNoneMatch?: IfMatch;
  /** Where a failed `ifMatch` points; a failed `ifNoneMatch` always points at its header. */
  source: Pick<MuralErrorOptions, 'header' | 'pointer'>;
}

export interface WriteRelationship {
  definition: RelationshipDefinition;
  pointer: string;
  items: WriteNode[];
  /** `data: null` on a to-one relationship: clear it. */
  clear: boolean;
  /**
   * A many-to-many relationship replaced in one statement: every member but
   * the items leaves, without reading the members (so there can be any number).
   */
  replacesAll?: boolean;
}

/** Every node of a write graph, parents before children. */
export function allNodes(root: WriteNode): WriteNode[] {
  const result: WriteNode[] = [];
  const visit = (node: WriteNode) => {
    if (result.includes(node)) return;
    result.push(node);
    for (const relationship of node.relationships) relationship.items.forEach(visit);
  };
  visit(root);
  return result;
}
