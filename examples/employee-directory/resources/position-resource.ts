import type { Models } from '../db/models/index.ts';
import type { ApplicationResource } from './application-resource.ts';

export function positionResource(models: Models, Base: typeof ApplicationResource) {
  return class PositionResource extends Base {
    static {
      this.model = models.Position;
      this.type = 'positions';
      this.description = 'A job an employee holds or held.';
      this.attribute('title', 'string');
      this.attribute('active', 'boolean');
      this.attribute('rank', 'integer');
      this.filter('employee_id', 'integer_id', { allowNil: true });
      this.filter('department_id', 'integer_id', { allowNil: true });
      this.belongsTo('employee');
      this.belongsTo('department');
    }
  };
}
