import type { Models } from '../db/models/index.ts';
import type { ApplicationResource } from './application-resource.ts';

export function teamResource(models: Models, Base: typeof ApplicationResource) {
  return class TeamResource extends Base {
    static {
      this.model = models.Team;
      this.type = 'teams';
      this.description = 'A group of employees within a department.';
      this.attribute('name', 'string');
      this.attribute('department_id', 'integer_id', { only: ['filterable', 'writable'] });
      this.belongsTo('department');
      this.manyToMany('employees', { foreignKey: { employee_teams: 'team_id' } });
    }
  };
}
