import { Op } from 'sequelize';
import { likeCondition, textCondition, type SequelizeScope } from 'mural/sequelize';
import type { Models } from '../db/models/index.ts';
import type { ApplicationResource } from './application-resource.ts';

export function employeeResource(models: Models, Base: typeof ApplicationResource) {
  return class EmployeeResource extends Base {
    static {
      this.model = models.Employee;
      this.type = 'employees';
      this.description = 'A person employed by the company.';
      this.defaultSort = [{ last_name: 'asc' }];
      // each record's version, in its ETag and in If-Match (the model's `version: 'lock_version'`)
      this.versionAttribute = 'lock_version';
      this.attribute('first_name', 'string');
      this.attribute('last_name', 'string');
      this.attribute('age', 'integer');
      this.attribute('salary', 'big_decimal', { readable: 'isAdmin', writable: 'isAdmin', filterable: 'isAdmin', sortable: 'isAdmin' });
      this.attribute('created_at', 'datetime', { writable: false });
      this.attribute('updated_at', 'datetime', { writable: false });
      this.extraAttribute('vacation_days', 'integer', (employee: { age: number | null }) => 20 + Math.floor((employee.age ?? 30) / 10));

      // `name` matches either name column, for search boxes. Like the built-in
      // string operators it ignores case, and the helpers escape LIKE wildcards
      // (`Op.startsWith` would let `filter[name][prefix]=%` match every row).
      this.filter('name', 'string', { only: ['eq', 'prefix'] }, {
        eq: (scope: SequelizeScope, values: string[]) =>
          scope.where({ [Op.or]: [textCondition(scope.model, 'first_name', 'eq', values), textCondition(scope.model, 'last_name', 'eq', values)] }),
        prefix: (scope: SequelizeScope, values: string[]) =>
          scope.where({ [Op.or]: values.flatMap((v) => [likeCondition(scope.model, 'first_name', 'prefix', v), likeCondition(scope.model, 'last_name', 'prefix', v)]) }),
      });
      this.sort('name', 'string', (scope: SequelizeScope, direction) => scope.order(['last_name', direction], ['first_name', direction]));
      this.stat({ age: ['average', 'sum', 'maximum', 'minimum'] });

      this.hasMany('positions');
      this.hasOne('current_position', {
        resource: 'positions',
        params: (params) => void (params.filter = { ...params.filter, active: true }),
      });
      this.manyToMany('teams', { foreignKey: { employee_teams: 'employee_id' } });
      this.polymorphicHasMany('notes', { as: 'notable', readable: 'isAdmin', writable: 'isAdmin' });
      this.hasMany('tasks');
    }
  };
}
