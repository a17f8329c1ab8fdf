import type { Guard, PlainGuard } from './guard.ts';
import type { QueryParams } from '../query-params.ts';

/**
 * The kind of a relationship, as `schema.json` spells it (`has_many`, `belongs_to`,
 * `many_to_many`, …).
 */
export type RelationshipKind =
  | 'has_many'
  | 'belongs_to'
  | 'has_one'
  | 'many_to_many'
  | 'polymorphic_belongs_to'
  | 'polymorphic_has_many';

/** A Resource class, as references to one resolve to. */
export type ResourceClassLike = abstract new () => object;

/** How a related Resource is named: its class, its type or class name, or a thunk returning the class. */
export type ResourceReference = string | ResourceClassLike | (() => ResourceClassLike);

/** Edits the query sent to the related Resource, e.g. to add a filter or sort; receives the parent models `M`. */
export type ParamsBlock<M = never, I = never> = (params: QueryParams, parents: M[], resource: I) => void;
/** Picks one parent's children (models `C`) from all fetched children. */
export type AssignEachBlock<M = never, C = never> = (parent: M, children: C[]) => unknown;
/** Assigns every parent's children itself, by calling `assign(parent, children)`. */
export type AssignBlock<M = never, C = never> = (parents: M[], children: C[], assign: (parent: object, value: unknown) => void) => void;

/**
 * `hasMany(name, options)` and the other relationships; `I` is the declaring
 * Resource, `M` its model, `C` the related model.
 */
export interface RelationshipOptions<I = never, M = never, C = never> {
  resource?: ResourceReference;
  /** The column linking the records (`<parent>_id` by default). */
  foreignKey?: string;
  primaryKey?: string;
  /** Takes no arguments; a method name is looked up on the declaring Resource, then on the related one. */
  readable?: PlainGuard<I> | string;
  writable?: PlainGuard<I> | string;
  link?: boolean;
  single?: boolean;
  alwaysIncludeResourceIds?: boolean;
  /** polymorphic_has_many: the polymorphic name (`notable`); many_to_many: the model association. */
  as?: string;
  params?: ParamsBlock<M, I>;
  assignEach?: AssignEachBlock<M, C>;
  assign?: AssignBlock<M, C>;
  description?: string;
}

/** `manyToMany(name, options)`: `foreignKey` names the join table and this side's key in it, `{ employee_teams: 'employee_id' }`. */
export interface ManyToManyOptions<I = never, M = never, C = never> extends Omit<RelationshipOptions<I, M, C>, 'foreignKey'> {
  foreignKey: Readonly<Record<string, string>>;
  /**
   * What destroying a record does to its join rows: `'unlink'` (the
   * default) removes them in the same transaction; `'refuse'` answers 409
   * while the record has any member, so a client must empty it first.
   */
  onDestroy?: OnDestroy;
}

/** What destroying a record does to its many-to-many links: see ManyToManyOptions.onDestroy. */
export type OnDestroy = 'unlink' | 'refuse';

export interface PolymorphicGroup {
  readonly value: string;
  readonly resource?: ResourceReference;
  readonly foreignKey?: string;
}

export interface PolymorphicBelongsToOptions<I = never, M = never, C = never> extends RelationshipOptions<I, M, C> {
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
  /** many_to_many: what destroying the declaring record does to its join rows. */
  readonly onDestroy?: OnDestroy;
  readonly description?: string;
  /** The Resource class that declared it, for guard lookup and inference. */
  readonly owner: object;
}

export const TO_MANY: ReadonlySet<RelationshipKind> = new Set(['has_many', 'many_to_many', 'polymorphic_has_many']);
