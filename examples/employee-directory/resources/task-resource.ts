import type { Models } from '../db/models/index.ts';
import type { ApplicationResource } from './application-resource.ts';

/** Tasks are polymorphic: every record is a bug, a feature or an epic, told apart by the `type` column. */
export function taskResources(models: Models, Base: typeof ApplicationResource) {
  class TaskResource extends Base {
    static {
      this.model = models.Task;
      this.type = 'tasks';
      this.description = 'Work assigned to an employee: a bug, a feature or an epic.';
      this.polymorphic = ['BugResource', 'FeatureResource', 'EpicResource'];
      this.attribute('title', 'string');
      this.attribute('employee_id', 'integer_id', { only: ['filterable', 'writable'] });
      this.belongsTo('employee');
    }
  }
  class BugResource extends TaskResource {
    static {
      this.type = 'bugs';
      this.attribute('severity', 'integer');
    }
  }
  class FeatureResource extends TaskResource {
    static {
      this.type = 'features';
      this.attribute('points', 'integer');
    }
  }
  class EpicResource extends TaskResource {
    static {
      this.type = 'epics';
      this.hasMany('milestones', { foreignKey: 'epic_id' });
    }
  }
  return { TaskResource, BugResource, FeatureResource, EpicResource };
}
