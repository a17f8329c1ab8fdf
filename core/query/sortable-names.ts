import type { ResourceBase } from '../resource/resource-base.ts';
import { allowedNow } from './guard-check.ts';

/** The names `sort=` accepts on a Resource in this request. */
export function sortableNames(resource: ResourceBase): string[] {
  const { config, name } = resource.resourceClass;
  return [...config.attributes.values()]
    .filter((a) => a.sortable !== false && !a.extra && allowedNow(resource, a.sortable, `${name} sort ${a.name}`))
    .map((a) => a.name);
}
