import type { Guard } from '../resource/guard.ts';
import type { QueryParams } from '../query/query-params.ts';

export type RelationshipKind =
  | 'has_many'
  | 'belongs_to'
  | 'has_one'
  | 'many_to_many'
  | 'polymorphic_belongs_to'
  | 'polymorphic_has_many';

/** How a related Resource is named: its class, its type or class name, or a thunk returning the class. */
export type ResourceReference = string | (abstract new () => unknown) | (() => unknown);

/** Edits the query sent to the related Resource, e.g. to add a filter or sort. */
export type ParamsBlock = (params: QueryParams, parents: never[], resource: never) => void;
/** Picks one parent's children from all fetched children. */
export type AssignEachBlock = (parent: never, children: never[]) => unknown;
/** Assigns every parent's children itself, by calling `assign(parent, children)`. */
export type AssignBlock = (parents: never[], children: never[], assign: (parent: unknown, value: unknown) => void) => void;

export interface RelationshipOptions {
  resource?: ResourceReference;
  /** The key linking the records; for many_to_many `{ joinTable: parentKey }`. */
  foreignKey?: string | Record<string, string>;
  primaryKey?: string;
  readable?: Guard;
  writable?: Guard;
  link?: boolean;
  single?: boolean;
  alwaysIncludeResourceIds?: boolean;
  /** polymorphic_has_many: the polymorphic name (`notable`); many_to_many: the model association. */
  as?: string;
  params?: ParamsBlock;
  assignEach?: AssignEachBlock;
  assign?: AssignBlock;
  description?: string;
}

export interface PolymorphicGroup {
  readonly value: string;
  readonly resource?: ResourceReference;
  readonly foreignKey?: string;
}

export interface PolymorphicBelongsToOptions extends RelationshipOptions {
  /** The column naming each record's type; `<name>_type` by default. */
  groupBy?: string;
}

/** One declared relationship, as the sideload, render and persist stages read it. */
export interface RelationshipDefinition {
  readonly name: string;
  readonly kind: RelationshipKind;
  readonly resource?: ResourceReference;
  readonly foreignKey?: string;
  readonly joinTable?: string;
  readonly primaryKey: string;
  readonly readable: Guard;
  readonly writable: Guard;
  readonly link: boolean;
  readonly single: boolean;
  readonly alwaysIncludeResourceIds: boolean;
  readonly as?: string;
  readonly params?: ParamsBlock;
  readonly assignEach?: AssignEachBlock;
  readonly assign?: AssignBlock;
  readonly groupBy?: string;
  readonly groups?: readonly PolymorphicGroup[];
  readonly description?: string;
  /** The Resource class that declared it, for guard lookup and inference. */
  readonly owner: object;
}

export const TO_MANY: ReadonlySet<RelationshipKind> = new Set(['has_many', 'many_to_many', 'polymorphic_has_many']);
