import { muralConfig } from '../config.ts';
import { InvalidQueryError } from '../errors/index.ts';
import type { IncludeNode } from '../query/include-tree.ts';
import type { StatsResult } from '../read/run-stats.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { Limiter } from './limiter.ts';

type ResourceClass = typeof ResourceBase;

/** A related record and the Resource (polymorphic child included) it renders as. */
export interface LoadedRecord {
  readonly record: object;
  readonly resource: ResourceClass;
}

/**
 * What the sideload stage found, for the render stage: each record's related
 * records by relationship, the records of each include node in load order,
 * and the stats of included types. Kept beside the records rather than on
 * them, so models are never mutated.
 */
export class IncludeGraph {
  readonly limiter = new Limiter(muralConfig.concurrency ? muralConfig.maxConcurrentSideloads : 1);
  readonly stats: Record<string, StatsResult> = {};
  // Maps, not WeakMaps: a graph lives as long as its records do (one request, or one proxy), and a WeakMap
  // insertion and its ephemeron bookkeeping in every GC cost several times a Map's, once per record
  // by relationship, then parent: a Map per relationship rather than one per parent record
  private readonly related = new Map<string, Map<object, LoadedRecord[] | LoadedRecord | null>>();
  private readonly byNode = new Map<IncludeNode, LoadedRecord[]>();
  private readonly implicit = new Map<object, Set<string>>();
  private sideloaded = 0;

  /** `maxRecords`: the root Resource's `maxIncludedRecords`, for the whole request. */
  constructor(readonly maxRecords = Infinity) {}

  /**
   * How many records the next sideload query may return: one more than the
   * budget left, so that going over is seen without loading more than that.
   */
  recordBudget(): number | undefined {
    return Number.isFinite(this.maxRecords) ? Math.max(0, this.maxRecords - this.sideloaded) + 1 : undefined;
  }

  /**
   * Counts records a sideload query returned. Going over the limit is a 400
   * asking the client to narrow the request: `included` has no pagination, so
   * cutting it short would silently drop data.
   */
  countSideloaded(count: number): void {
    this.sideloaded += count;
    if (this.sideloaded > this.maxRecords) {
      throw new InvalidQueryError(
        'too_many_included_records',
        `The include would sideload more than ${this.maxRecords} records; ask for fewer (page[size], page[<type>][size], filters or fewer includes)`,
        { parameter: 'include' },
      );
    }
  }

  /** Records a relationship loaded only for its linkage (`alwaysIncludeResourceIds`). */
  markImplicit(parent: object, relationship: string): void {
    const set = this.implicit.get(parent) ?? new Set<string>();
    this.implicit.set(parent, set.add(relationship));
  }

  assign(parent: object, relationship: string, value: LoadedRecord[] | LoadedRecord | null): void {
    let byParent = this.related.get(relationship);
    if (!byParent) this.related.set(relationship, (byParent = new Map()));
    byParent.set(parent, value);
  }

  /** Whether some record's relationship was loaded only for its linkage: if not, serializers need not ask per record. */
  hasImplicit(): boolean {
    return this.implicit.size > 0;
  }

  /** The relationships of a record loaded only for their linkage. */
  implicitOf(parent: object): ReadonlySet<string> | undefined {
    return this.implicit.get(parent);
  }

  /** Undefined when the relationship was not loaded for this record. */
  relatedTo(parent: object, relationship: string): LoadedRecord[] | LoadedRecord | null | undefined {
    return this.related.get(relationship)?.get(parent);
  }

  addLoaded(node: IncludeNode, records: LoadedRecord[]): void {
    const before = this.byNode.get(node);
    this.byNode.set(node, before === undefined ? records : [...before, ...records]);
  }

  loaded(node: IncludeNode): readonly LoadedRecord[] {
    return this.byNode.get(node) ?? [];
  }
}
