import type { Models } from '../db/models/index.ts';
import { ApplicationResource } from './application-resource.ts';

export function departmentResource(models: Models) {
  return class DepartmentResource extends ApplicationResource {
    static {
      this.model = models.Department;
      this.type = 'departments';
      this.description = 'A part of the company.';
      this.attribute('name', 'string');
    }
  };
}
