import type { Action } from '../resource/action.ts';
import { variantsOf } from '../resource/polymorphism.ts';
import type { ResourceBase } from '../resource/resource-base.ts';

type ResourceClass = typeof ResourceBase;

/** The Resources operations may write, by type. */
export interface OperationResources {
  byType(type: string): ResourceClass | undefined;
  /** Whether some endpoint of the Resource serves the action: operations write nothing its endpoints do not. */
  serves(resource: ResourceClass, action: Action): boolean;
}

/**
 * The Resources given, each answering to its type; the first given wins a
 * type two share. A polymorphic parent's children answer to theirs too,
 * unless a Resource given answers to it already.
 */
export function operationResources(given: readonly ResourceClass[]): OperationResources {
  const byType = new Map<string, ResourceClass>();
  const concrete = given.filter((resource) => !resource.abstractClass);
  for (const resource of [...concrete, ...concrete.flatMap(variantsOf)]) {
    if (!resource.abstractClass && !byType.has(resource.type)) byType.set(resource.type, resource);
  }
  return {
    byType: (type) => byType.get(type),
    serves: (resource, action) => resource.endpoints.some((endpoint) => endpoint.actions.includes(action)),
  };
}
