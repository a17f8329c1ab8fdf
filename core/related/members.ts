import { equalityClause } from '../adapter/adapter.ts';
import { buildQuery } from '../query/build-query.ts';
import type { QueryPlan } from '../query/query-plan.ts';
import { loadRecords } from '../read/load-records.ts';
import { variantFor } from '../resource/polymorphism.ts';
import type { LoadedRecord } from '../sideload/include-graph.ts';
import { idTypeOf } from './load-parent.ts';
import type { RelatedTarget } from './related-target.ts';

export interface MemberQuery {
  /** Only these ids (coerced): is each of them a member? */
  keys?: readonly unknown[];
  /** At most this many, in the relationship's order. */
  limit: number;
}

/**
 * The members of a relationship as `include` gives them (the `params`
 * block's filters and order, a has_one's first record), as models: one query.
 * Writes read them to know what to disassociate and whether the result is
 * what the client asked for.
 */
export async function readMembers(target: RelatedTarget, query: MemberQuery): Promise<LoadedRecord[]> {
  if (target.baseScope === undefined || query.keys?.length === 0) return [];
  const resource = new target.resource();
  const scope = query.keys ? resource.adapter.filter(target.baseScope, equalityClause('id', query.keys, idTypeOf(target.resource))) : target.baseScope;
  const built = buildQuery(resource, target.params, { enforceRequired: false });
  const plan: QueryPlan = { ...built, include: [], stats: [], page: { size: query.limit, number: 1 } };
  const { records } = await loadRecords(resource, plan, { baseScope: scope });
  const loaded = (records as object[]).map((record) => ({ record, resource: variantFor(target.resource, record) }));
  const members = target.pick ? target.pick(loaded) : loaded;
  return target.toOne ? members.slice(0, 1) : members;
}
