import type { Models } from '../db/models/index.ts';
import type { ApplicationResource } from './application-resource.ts';

export function departmentResource(models: Models, Base: typeof ApplicationResource) {
  return class DepartmentResource extends Base {
    static {
      this.model = models.Department;
      this.type = 'departments';
      this.description = 'A part of the company.';
      this.attribute('name', 'string');
      this.hasMany('positions');
      this.hasMany('teams');
    }
  };
}
