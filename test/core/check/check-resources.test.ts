import test from 'ava';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Sequelize } from 'sequelize';
import { checkResources, Resource, ResourceCheckFailed } from '../../../core/index.ts';
import { defineModels } from '../../../examples/employee-directory/db/models/index.ts';
import { defineResources } from '../../../examples/employee-directory/resources/index.ts';
import { SequelizeAdapter, type SequelizeScope } from '../../../plugins/sequelize/index.ts';
import { applicationResource, Department, Employee, Position, problemsOf, Task } from '../../support/check-fixtures.ts';

/** checkResources as a whole: every problem in one error, where each was declared, and what it lets pass. */

const FILE = 'test/core/check/check-resources.test.ts';
const source = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n');

/** `file:line:column` of the DSL call on the line holding `marker` (V8 points at the called member). */
function at(marker: string, member: string): string {
  const line = source.findIndex((text) => text.includes(marker));
  return `${FILE}:${line + 1}:${source[line]!.indexOf(member) + 1}`;
}

function broken() {
  class ApplicationResource extends Resource {
    static {
      this.abstractClass = true;
      this.adapter = SequelizeAdapter;
      this.attribute('created_at', 'datetime', { writable: false }); // mark: created_at
    }
  }
  class EmployeeResource extends ApplicationResource {
    static {
      this.model = Employee;
      this.attribute('titel', 'string'); // mark: titel
      this.belongsTo('author'); // mark: author
    }
  }
  class PositionResource extends ApplicationResource {
    static {
      this.type = 'positions'; // mark: no model
      this.attribute('title', 'string');
    }
  }
  return [ApplicationResource, EmployeeResource, PositionResource];
}

test('one error lists every problem, each with the file, line and column of its declaration', (t) => {
  const error = t.throws(() => checkResources(broken()), { instanceOf: ResourceCheckFailed });
  t.is(
    error?.message,
    [
      'The Resources have 4 problems:',
      `  EmployeeResource.created_at: not a column of model Employee; compute it with a block, or declare it { virtual: true } if its records carry it another way (at ${at('mark: created_at', 'attribute')})`,
      `  EmployeeResource.titel: not a column of model Employee; did you mean "title"? (at ${at('mark: titel', 'attribute')})`,
      `  EmployeeResource.author: no Resource named "authors" or "AuthorResource"; pass resource: to the relationship (at ${at('mark: author', 'belongsTo')})`,
      `  PositionResource.model: not set; set this.model to the model it serves, or override baseScope() (at ${at('mark: no model', 'type')})`,
    ].join('\n'),
  );
});

test('locations are shown relative to root, when under it', (t) => {
  const error = t.throws(() => checkResources(broken(), { root: fileURLToPath(new URL('.', import.meta.url)) }), { instanceOf: ResourceCheckFailed });
  t.regex(error?.message ?? '', /\(at check-resources\.test\.ts:\d+:\d+\)/);
  t.is(error?.problems[1]!.location?.file, fileURLToPath(import.meta.url));
});

test('as JSON:API, one error object per problem, with no source location (as no stack) in it', (t) => {
  const error = t.throws(() => checkResources(broken()), { instanceOf: ResourceCheckFailed });
  const errors = error!.toJsonapi().errors;
  t.is(errors.length, 4);
  t.deepEqual(errors[1], {
    status: '500',
    code: 'invalid_resources',
    title: 'Invalid Resources',
    detail: 'EmployeeResource.titel: not a column of model Employee; did you mean "title"?',
    meta: { resource: 'EmployeeResource', member: 'titel' },
  });
  t.false(JSON.stringify(errors).includes('.test.ts'));
});

test('polymorphic Resources, abstract bases, models set by subclasses, base scopes, blocks, guards, extra attributes, own filters and lazy relationships pass', (t) => {
  const Base = applicationResource();
  class TaskResource extends Base {
    static {
      this.model = Task;
      this.polymorphic = [() => BugResource, 'features'];
      this.attribute('title', 'string', { readable: 'isAdmin', writable: (task: unknown) => task !== null });
      this.belongsTo('employee', { resource: () => EmployeeResource });
    }
    isAdmin() {
      return this.context?.role === 'admin';
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
    }
  }
  class PeopleResource extends Base {
    static {
      this.abstractClass = true;
      this.attribute('age', 'integer');
      this.extraAttribute('decade', 'integer', (e: { age: number }) => Math.floor(e.age / 10));
    }
  }
  class EmployeeResource extends PeopleResource {
    static {
      this.model = Employee;
      this.attribute('full_name', 'string', { only: ['readable'] });
      this.filter('name', 'string', { only: ['eq'] }, { eq: (scope: SequelizeScope, names: string[]) => scope.where({ last_name: names }) });
      this.sort('name', 'string', (scope: SequelizeScope, direction) => scope.order(['last_name', direction]));
      this.hasMany('positions', { resource: () => PositionResource });
    }
  }
  class PositionResource extends Base {
    static {
      this.model = Position;
      this.belongsTo('department', { resource: () => DepartmentResource });
    }
    override baseScope() {
      return super.baseScope();
    }
  }
  class DepartmentResource extends Base {
    static {
      this.model = Department;
    }
  }
  t.deepEqual(problemsOf([TaskResource, BugResource, FeatureResource, PeopleResource, EmployeeResource, PositionResource, DepartmentResource]), []);
});

test('the example application passes', (t) => {
  const sequelize = new Sequelize({ dialect: 'sqlite', storage: ':memory:', logging: false });
  t.deepEqual(problemsOf(Object.values(defineResources(defineModels(sequelize)))), []);
});
