import type { ResourceBase } from '../resource/resource-base.ts';
import type { PageRequest } from '../query/query-plan.ts';

export function applyPagination(resource: ResourceBase, scope: unknown, page: PageRequest | undefined): unknown {
  if (!page) return scope;
  const custom = resource.resourceClass.config.paginate;
  if (custom) return custom(scope as never, page.number, page.size, resource as never);
  return resource.adapter.paginate(scope, page.size, page.number);
}
