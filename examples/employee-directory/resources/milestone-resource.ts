import type { Models } from '../db/models/index.ts';
import type { ApplicationResource } from './application-resource.ts';

export function milestoneResource(models: Models, Base: typeof ApplicationResource) {
  return class MilestoneResource extends Base {
    static {
      this.model = models.Milestone;
      this.type = 'milestones';
      this.description = 'A step of an epic.';
      this.attribute('name', 'string');
      this.attribute('epic_id', 'integer_id', { only: ['filterable', 'writable'] });
      this.belongsTo('epic', { resource: 'epics', foreignKey: 'epic_id' });
    }
  };
}
