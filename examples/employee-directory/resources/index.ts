import type { Models } from '../db/models/index.ts';
import { departmentResource } from './department-resource.ts';
import { employeeResource } from './employee-resource.ts';
import { positionResource } from './position-resource.ts';

/**
 * The directory's Resources, bound to one set of models. A factory rather
 * than module-level classes so tests can serve several databases at once.
 */
export function defineResources(models: Models) {
  return {
    EmployeeResource: employeeResource(models),
    PositionResource: positionResource(models),
    DepartmentResource: departmentResource(models),
  };
}

export type DirectoryResources = ReturnType<typeof defineResources>;
