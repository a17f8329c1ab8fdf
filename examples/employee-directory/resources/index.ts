import type { Models } from '../db/models/index.ts';
import { ApplicationResource } from './application-resource.ts';
import { departmentResource } from './department-resource.ts';
import { employeeResource } from './employee-resource.ts';
import { milestoneResource } from './milestone-resource.ts';
import { noteResource } from './note-resource.ts';
import { positionResource } from './position-resource.ts';
import { taskResources } from './task-resource.ts';
import { teamResource } from './team-resource.ts';

/**
 * The directory's Resources, bound to one set of models. A factory rather
 * than module-level classes so tests can serve several databases at once; the
 * per-call base class keeps each set's relationships pointing at each other.
 */
export function defineResources(models: Models) {
  class DirectoryResource extends ApplicationResource {
    static {
      this.abstractClass = true;
    }
  }
  return {
    EmployeeResource: employeeResource(models, DirectoryResource),
    PositionResource: positionResource(models, DirectoryResource),
    DepartmentResource: departmentResource(models, DirectoryResource),
    TeamResource: teamResource(models, DirectoryResource),
    NoteResource: noteResource(models, DirectoryResource),
    ...taskResources(models, DirectoryResource),
    MilestoneResource: milestoneResource(models, DirectoryResource),
  };
}

export type DirectoryResources = ReturnType<typeof defineResources>;
