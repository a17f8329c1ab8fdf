import type { ServiceUnavailable } from '../errors/service-unavailable.ts';

/** The built-in filter operators every adapter implements, each with a `not_` form. */
export const BUILT_IN_OPERATORS = ['eq', 'eql', 'prefix', 'suffix', 'match', 'gt', 'gte', 'lt', 'lte'] as const;
/** A filter operator every adapter implements (`eq`, `prefix`, `gte`…); each also has a `not_` form. */
export type BuiltInOperator = (typeof BUILT_IN_OPERATORS)[number];

/** The calculations every adapter provides: `count` through `count()`, the others through `calculate()`. */
export const BUILT_IN_CALCULATIONS = ['count', 'sum', 'average', 'maximum', 'minimum'] as const;
/** `count`, `sum`, `average`, `maximum` or `minimum`: a calculation every adapter provides. */
export type BuiltInCalculation = (typeof BUILT_IN_CALCULATIONS)[number];

/** A sort's direction: `asc`, or `desc` (`-name` in a query). */
export type SortDirection = 'asc' | 'desc';

/**
 * One key of a cursor (keyset) page's order. NULL sorts below every value in
 * both directions, on every database: first ascending, last descending.
 */
export interface KeysetKey {
  readonly column: string;
  readonly direction: SortDirection;
}

/** One built-in operator applied to one column, as the filter stage hands it to an adapter. */
export interface FilterClause {
  readonly column: string;
  readonly operator: BuiltInOperator;
  /** `not_<operator>`: the negation of the whole clause. */
  readonly negated: boolean;
  /** Coerced values; the clause matches when any of them matches. May contain null. */
  readonly values: readonly unknown[];
  /** Compare text ignoring case (eq on text types, prefix, suffix, match). */
  readonly caseInsensitive: boolean;
  readonly typeName: string;
}

/** An exact-match clause, as core itself uses to link records (keys, type columns). */
export function equalityClause(column: string, values: readonly unknown[], typeName = 'integer'): FilterClause {
  return { column, operator: 'eq', negated: false, values, caseInsensitive: false, typeName };
}

/**
 * How records of one Resource reach the records of a related one, for
 * `filter[has]` and related sorts: `parentKey` on the outer records equals
 * `relatedKey` on the related ones, directly or through a join table.
 */
export interface RelatedLink {
  readonly parentKey: string;
  readonly relatedKey: string;
  /** many_to_many: join rows pairing `parentColumn` (= parentKey) with `childColumn` (= relatedKey). */
  readonly through?: { readonly table: string; readonly parentColumn: string; readonly childColumn: string };
  /** polymorphic belongs_to: this link holds only where the parent's type column has this value. */
  readonly parentType?: { readonly column: string; readonly value: string };
  /** The related Resource's scope (base scope and conditions): a scope of the related Resource's adapter. */
  readonly scope: unknown;
}

/** `filter[has]` (or, negated, `filter[has_no]`) on one relationship: some link finds a related record in its scope. */
export interface RelatedCondition {
  readonly negated: boolean;
  /** Alternatives, ORed: one per type a polymorphic belongs_to may point at, else one. */
  readonly links: readonly RelatedLink[];
}

/**
 * Filter clauses and related conditions combined with and, or and not, or a
 * constant: what a row rule compiles to, applied as one WHERE.
 */
export type ConditionTree =
  | { readonly kind: 'clause'; readonly clause: FilterClause }
  | { readonly kind: 'related'; readonly condition: RelatedCondition }
  | { readonly kind: 'and' | 'or'; readonly conditions: readonly ConditionTree[] }
  | { readonly kind: 'not'; readonly condition: ConditionTree }
  | { readonly kind: 'constant'; readonly value: boolean };

/** One step of a related sort: a to-one link from the previous Resource. */
export interface RelatedSortStep {
  readonly parentKey: string;
  readonly relatedKey: string;
  readonly scope: unknown;
}

/**
 * What a backend provides. A scope is the adapter's own immutable query value;
 * core threads it through filters, sorts and pagination and never looks
 * inside, so custom filters and sorts written against an adapter's scope
 * compose with the built-in ones.
 */
export interface Adapter<Scope = unknown, Model = unknown> {
  baseScope(model: unknown): Scope;
  filter(scope: Scope, clause: FilterClause): Scope;
  order(scope: Scope, column: string, direction: SortDirection): Scope;
  paginate(scope: Scope, size: number, number: number): Scope;
  /**
   * Cursor pagination: orders the scope by `keys` (NULL below every value)
   * and, given `after` (one value per key, null for NULL), keeps only the
   * records strictly after that position in this order. The last key is
   * unique, so the position is exact. An adapter without it serves offset
   * pagination only; a cursor request is then a 400.
   */
  keyset?(scope: Scope, keys: readonly KeysetKey[], after: readonly unknown[] | undefined): Scope;
  /**
   * Runs the query; every record must expose its attributes as properties.
   * With `plain`, records may be plain rows rather than model instances.
   */
  resolve(scope: Scope, options?: ResolveOptions): Promise<Model[]>;
  /** Distinct records matching the scope, ignoring its order and pagination. */
  count(scope: Scope): Promise<number>;
  /**
   * Whether reads started together run at the same time (a pool of
   * connections) rather than queue on one, as now: core then starts the
   * pagination count with the page query instead of after it. Default false.
   */
  concurrentReads?(): boolean;
  /** The built-in calculations but `count`, over the unpaginated scope. */
  calculate(scope: Scope, column: string, calculation: Exclude<BuiltInCalculation, 'count'>): Promise<unknown>;
  /** At most `limit` records per value of `column`, in the scope's order: one query, a window function. */
  limitPerGroup(scope: Scope, column: string, limit: number): Scope;
  /**
   * Narrows to records linked through a join table to any of `parentIds`; with
   * `annotate`, each record also carries those parent ids (see `throughParentIds`).
   */
  filterThrough(scope: Scope, join: JoinTable, parentIds: readonly unknown[], annotate: boolean): Scope;
  /** The parent ids a record loaded with `filterThrough(…, true)` is linked to. */
  throughParentIds(record: Model): unknown[];
  /**
   * Records read through the scope inside a transaction stay locked until it
   * ends (`SELECT … FOR UPDATE`): a relationship write locks its parent so that
   * concurrent writes to the same relationship run one after the other. Leave
   * it out where the database serializes writes anyway.
   */
  lockForUpdate?(scope: Scope): Scope;

  /**
   * The attribute the backend itself versions records by (Sequelize's
   * `version: true`), the default of a Resource's `versionAttribute`.
   */
  versionAttribute?(model: unknown): string | undefined;
  /**
   * Marks a loaded record so that its next save writes a new version even
   * when nothing else changed: a relationship write changes the record's
   * representation without touching its row. Leave it out where versions
   * are the application's business.
   */
  touch?(record: Model): void;
  /**
   * Only records for which some related record matches (or, negated, none
   * does): `filter[has]` and `filter[has_no]`. One query, no duplicates:
   * a subquery rather than a join. Adapters without it answer such filters with a 400.
   */
  filterRelated?(scope: Scope, condition: RelatedCondition): Scope;
  /**
   * Only records meeting the tree, as one WHERE: row rules with `or`, `not`,
   * a constant or a related condition. Without it, an adapter serves only
   * rules that are ANDs of column conditions (through `filter`); others are
   * a configuration error.
   */
  filterTree?(scope: Scope, tree: ConditionTree): Scope;
  /**
   * Selects, beside each record's columns, whether it meets the tree, as a
   * column `alias` holding 1 or 0 (true or false): `meta.permissions`,
   * computed in the records' own query. Without it, permissions that depend
   * on the record cannot be asked for (a 400).
   */
  annotateTree?(scope: Scope, tree: ConditionTree, alias: string): Scope;
  /**
   * Whether `filterRelated` on `scope` can take `inner`, a scope of another
   * Resource, as a link's scope: the same database, and conditions a
   * subquery can hold. Core then starts a nested to-one sideload beside its
   * parents' query, reading the parents through that query as a subquery,
   * rather than after it. Left out: never.
   */
  nestsScope?(scope: Scope, inner: unknown): boolean;
  /**
   * Orders by `column` of the record reached through a chain of to-one
   * links (`sort=department.name`); records without one sort after every
   * other in ascending order, before them in descending order, on every database.
   */
  orderRelated?(scope: Scope, steps: readonly RelatedSortStep[], column: string, direction: SortDirection): Scope;

  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (transaction: unknown) => Promise<T>): Promise<T>;
  /**
   * Whether this adapter's writes can run inside `transaction`, opened by the
   * adapter of another Resource: atomic operations write several Resources in
   * one transaction, which must be on one database. Left out: any
   * transaction of an adapter of the same class is taken to be.
   */
  joins?(transaction: unknown): boolean;
  /** A new, unsaved record of `model`. */
  build(model: unknown): Model;
  /** The record with this primary key, or null. */
  find(model: unknown, id: unknown, transaction: unknown): Promise<Model | null>;
  assign(record: Model, attributes: Record<string, unknown>): void;
  /** The record's validation problems, without saving; `skip` names attributes not to check. */
  validate(record: Model, skip: readonly string[]): Promise<ValidationProblem[]>;
  /**
   * Saves a record that has just passed `validate`, without validating it
   * again (validation hooks run once per write); problems the database
   * reports (unique keys…) come back as a ValidationProblems error.
   */
  save(record: Model, transaction: unknown): Promise<Model>;
  destroy(record: Model, transaction: unknown): Promise<void>;
  /**
   * Adds the join row linking parent and child, unless it exists, without
   * failing when a concurrent write adds the same row first. Resolves false
   * when the row was there already (true or nothing: added).
   */
  link(join: JoinTable, parentId: unknown, childId: unknown, transaction: unknown): Promise<boolean | void>;
  unlink(join: JoinTable, parentId: unknown, childId: unknown, transaction: unknown): Promise<void>;
  /**
   * Removes every join row of `parentId` but those to the children in
   * `keep`, in one statement: a record destroyed, a many-to-many
   * relationship replaced or cleared however many members it has. Without
   * it, a destroyed record's join rows stay, and a replace reads and unlinks
   * members one by one (at most `maxWriteRecords`).
   */
  unlinkAll?(join: JoinTable, parentId: unknown, keep: readonly unknown[], transaction: unknown): Promise<void>;
  /** Whether `parentId` has any join row: a relationship declared `onDestroy: 'refuse'` asks before its record is destroyed. */
  hasLinks?(join: JoinTable, parentId: unknown, transaction: unknown): Promise<boolean>;
  /**
   * Gives the records `selection` picks of `model` a new version (and a new
   * update time, where the model keeps one), in the write's transaction: a
   * link to them changed, so their documents did. `at` is the time a
   * timestamp version takes. Without it, only the records a write saves get
   * new versions.
   */
  bumpVersions?(model: unknown, versionAttribute: string, selection: RecordSelection, at: Date, transaction: unknown): Promise<void>;
  /** What bumpVersions did to a row, done to a record the write holds in memory, so the answer's ETag is the stored version. */
  bumpLoadedVersion?(record: Model, versionAttribute: string, at: Date): void;
  /** The problems an error thrown by save describes, when it is a validation failure; undefined otherwise. */
  validationProblems(error: unknown): ValidationProblem[] | undefined;
  /**
   * What `checkResources` may know of a model, so that an attribute or a key
   * that is not there fails at startup rather than at the first request
   * reading it. Left out (or answering undefined): the model's members are
   * not checked, only what core itself knows.
   */
  describeModel?(model: unknown): ModelDescription | undefined;
  /**
   * A 503 for an error meaning the database could not serve the request now
   * (connection lost, deadlock, serialization failure…), undefined for any
   * other error. Core asks when an error escapes a read or a write, so a
   * client sees `Retry-After` instead of a 500, and never the driver's message.
   */
  transientFailure?(error: unknown): ServiceUnavailable | undefined;
  /**
   * The integrity constraint (unique, foreign key, not null, check) an
   * error of `save`, `destroy`, `link` or `unlink` says the database
   * enforced, undefined for any other error. Core answers it as the
   * client's 409 or 422, never a 500, and never with the driver's text.
   * Left out: such errors are 500s, unless `validationProblems` knows them.
   */
  constraintViolation?(error: unknown, record?: Model): ConstraintViolation | undefined;
}

/** A write the database refused for one of its integrity constraints, as an adapter recognises it. */
export interface ConstraintViolation {
  /** Which constraint: a unique key, a foreign key, a NOT NULL or a check. */
  readonly kind: 'unique' | 'foreign_key' | 'not_null' | 'check';
  /**
   * For a foreign key: `referenced` when other records refer to the one
   * deleted (or whose key changed), `missing` when the record written
   * refers to one that does not exist; undefined when the database does
   * not say (SQLite), and core then infers it from the write.
   */
  readonly side?: 'referenced' | 'missing';
  /** The attributes of the written record at fault, when the database names their columns; empty otherwise. */
  readonly attributes: readonly string[];
}

/** A model as an adapter sees it, for `checkResources`. */
export interface ModelDescription {
  /** How messages name the model: `Employee`. */
  readonly name: string;
  /** What filters, sorts, stats and keys can use: the columns of its table, by the names records carry them under. */
  readonly columns: readonly string[];
  /** What records carry besides their columns, which attributes can render but queries cannot use: getters, virtual attributes. */
  readonly properties: readonly string[];
  /** The columns of other tables of the same database the adapter knows of (join tables), by table name. */
  readonly tables: ReadonlyMap<string, readonly string[]>;
}

/** A validation problem as an adapter reports it. */
export interface ValidationProblem {
  attribute?: string;
  message: string;
  code: string;
}

/**
 * Records of one table picked by a column: those whose `column` is one of
 * `keys`, or is a child linked to `parentId` through `join` (less `keep`).
 */
export type RecordSelection =
  | { readonly column: string; readonly keys: readonly unknown[] }
  | { readonly column: string; readonly linkedThrough: JoinTable; readonly parentId: unknown; readonly keep: readonly unknown[] };

/** A many-to-many join table, as a relationship declares it. */
export interface JoinTable {
  readonly table: string;
  /** Column pointing at the parent (the declaring side). */
  readonly parentKey: string;
  /** Column pointing at the records being queried. */
  readonly childKey: string;
  /** Key of the records being queried that childKey refers to. */
  readonly primaryKey: string;
}

/** Adapters are classes instantiated once per Resource class. */
export type AdapterClass = new (resource: AdapterTarget) => Adapter;

/** What an adapter may know of the Resource it serves. */
export interface AdapterTarget {
  readonly model: unknown;
  readonly type: string;
  readonly name: string;
}

/** How an adapter's `resolve` may load records. */
export interface ResolveOptions {
  /** Nothing will call model methods on the records: plain rows will do. */
  plain?: boolean;
}
