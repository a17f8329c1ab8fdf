import { buildQuery } from '../query/build-query.ts';
import type { QueryParams } from '../query-params.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { TRASHED_FILTER } from '../resource/soft-delete.ts';
import { trashedOf } from '../rules/rule-scope.ts';
import type { WriteTarget } from './persist-write.ts';

/**
 * An update or destroy of a soft-deleting Resource addresses trashed
 * records when its query says `filter[trashed]=with|only` (to restore or
 * purge one): the filter is checked as a read checks it (its values, its
 * guard) before anything is written.
 */
export function withTrashed(resourceClass: typeof ResourceBase, target: WriteTarget, params: QueryParams): WriteTarget {
  const asked = params.filter?.[TRASHED_FILTER];
  if (asked === undefined || target.action === 'create' || !resourceClass.config.softDelete) return target;
  const resource = new resourceClass();
  const plan = buildQuery(resource, { filter: { [TRASHED_FILTER]: asked } });
  return { ...target, trashed: trashedOf(resource, plan.filters) };
}
