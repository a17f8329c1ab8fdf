import type { Models } from '../db/models/index.ts';
import { ApplicationResource } from './application-resource.ts';

export function positionResource(models: Models) {
  return class PositionResource extends ApplicationResource {
    static {
      this.model = models.Position;
      this.type = 'positions';
      this.description = 'A job an employee holds or held.';
      this.attribute('title', 'string');
      this.attribute('active', 'boolean');
      this.attribute('rank', 'integer');
      this.filter('employee_id', 'integer_id', { allowNil: true });
      this.filter('department_id', 'integer_id', { allowNil: true });
    }
  };
}
