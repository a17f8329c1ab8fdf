import test from 'ava';
import { applicationResource, Department, Employee, Note, Position, Task, Team, problemsOf, refusedUntilFixed } from '../../support/check-fixtures.ts';

/** checkResources on relationships: each leads to a Resource, its keys where its kind reads them. */

test('a belongs_to naming no Resource', refusedUntilFixed, (broken) => {
  const Base = applicationResource();
  class PositionResource extends Base {
    static {
      this.model = Position;
      this.belongsTo('employee');
    }
  }
  const served = [PositionResource];
  if (broken) return served;
  class EmployeeResource extends Base {
    static {
      this.model = Employee;
    }
  }
  return [...served, EmployeeResource];
}, ['PositionResource.employee: no Resource named "employees" or "EmployeeResource"; pass resource: to the relationship']);

test('a relationship name one letter off a Resource\'s: did you mean', refusedUntilFixed, (broken) => {
  const Base = applicationResource();
  class DepartmentResource extends Base {
    static {
      this.model = Department;
    }
  }
  class PositionResource extends Base {
    static {
      this.model = Position;
      this.belongsTo(broken ? 'departmnt' : 'department');
    }
  }
  return [DepartmentResource, PositionResource];
}, ['PositionResource.departmnt: no Resource named "departmnts" or "DepartmntResource"; did you mean "department"?']);

test('a belongs_to whose foreign key is not a column of its own model', refusedUntilFixed, (broken) => {
  const Base = applicationResource();
  class EmployeeResource extends Base {
    static {
      this.model = Employee;
      this.belongsTo('manager', { resource: () => EmployeeResource, ...(!broken && { foreignKey: 'department_id' }) });
    }
  }
  return [EmployeeResource];
}, ['EmployeeResource.manager: foreign key manager_id is not a column of model Employee; pass foreignKey: naming the column']);

test('a foreign key named in the declaration, misspelt', refusedUntilFixed, (broken) => {
  const Base = applicationResource();
  class EmployeeResource extends Base {
    static {
      this.model = Employee;
    }
  }
  class PositionResource extends Base {
    static {
      this.model = Position;
      this.belongsTo('employee', { foreignKey: broken ? 'employe_id' : 'employee_id' });
    }
  }
  return [EmployeeResource, PositionResource];
}, ['PositionResource.employee: foreign key employe_id is not a column of model Position; did you mean "employee_id"?']);

test('a has_many whose foreign key is not a column of the related model', refusedUntilFixed, (broken) => {
  const Base = applicationResource();
  class PositionResource extends Base {
    static {
      this.model = Position;
    }
  }
  class TeamResource extends Base {
    static {
      this.model = Team;
      // positions have no team_id: the relationship needs the column positions do have
      this.hasMany('positions', broken ? {} : { foreignKey: 'department_id' });
    }
  }
  return [PositionResource, TeamResource];
}, ['TeamResource.positions: foreign key team_id is not a column of model Position; pass foreignKey: naming the column']);

test('a many_to_many whose key is not a column of its join table', refusedUntilFixed, (broken) => {
  const Base = applicationResource();
  class EmployeeResource extends Base {
    static {
      this.model = Employee;
      this.manyToMany('teams', { foreignKey: { employee_teams: broken ? 'employe_id' : 'employee_id' } });
    }
  }
  class TeamResource extends Base {
    static {
      this.model = Team;
      this.manyToMany('employees', { foreignKey: { employee_teams: 'team_id' } });
    }
  }
  return [EmployeeResource, TeamResource];
}, ['EmployeeResource.teams: foreign key employe_id is not a column of join table employee_teams; did you mean "employee_id"?']);

test('a join table no model describes is taken on trust: only the database could tell', (t) => {
  const Base = applicationResource();
  class TeamResource extends Base {
    static {
      this.model = Team;
    }
  }
  class EmployeeResource extends Base {
    static {
      this.model = Employee;
      this.manyToMany('teams', { foreignKey: { memberships: 'member_id' } });
    }
  }
  t.deepEqual(problemsOf([TeamResource, EmployeeResource]), []);
});

test('a polymorphic has_many whose as: names no columns of the related model', refusedUntilFixed, (broken) => {
  const Base = applicationResource();
  class NoteResource extends Base {
    static {
      this.model = Note;
    }
  }
  class EmployeeResource extends Base {
    static {
      this.model = Employee;
      this.polymorphicHasMany('notes', { as: broken ? 'noteable' : 'notable' });
    }
  }
  return [NoteResource, EmployeeResource];
}, [
  'EmployeeResource.notes: foreign key noteable_id is not a column of model Note; did you mean "notable_id"?',
  'EmployeeResource.notes: type column noteable_type is not a column of model Note; did you mean "notable_type"?',
]);

test('a polymorphic belongs_to with a type naming no Resource, and its type column misnamed', refusedUntilFixed, (broken) => {
  const Base = applicationResource();
  class EmployeeResource extends Base {
    static {
      this.model = Employee;
    }
  }
  class TeamResource extends Base {
    static {
      this.model = Team;
    }
  }
  class NoteResource extends Base {
    static {
      this.model = Note;
      this.polymorphicBelongsTo('notable', { groupBy: broken ? 'notable_typ' : 'notable_type' }, (on) => {
        on(broken ? 'employes' : 'employees');
        on('teams', { resource: () => TeamResource });
      });
    }
  }
  return [EmployeeResource, TeamResource, NoteResource];
}, [
  'NoteResource.notable[employes]: no Resource named "employes"; did you mean "employees"?',
  'NoteResource.notable: type column notable_typ is not a column of model Note; did you mean "notable_type"?',
]);

test('a polymorphic parent listing a child that does not exist', refusedUntilFixed, (broken) => {
  const Base = applicationResource();
  class TaskResource extends Base {
    static {
      this.model = Task;
      this.polymorphic = ['BugResource', broken ? 'FeatureResourc' : 'FeatureResource'];
      this.attribute('title', 'string');
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
  return [TaskResource, BugResource, FeatureResource];
}, ['TaskResource.polymorphic: no Resource named "FeatureResourc"; did you mean "FeatureResource"?']);

test('a polymorphic child is checked with its parent, and a mistake they share is reported once, for the parent', (t) => {
  const Base = applicationResource();
  class TaskResource extends Base {
    static {
      this.model = Task;
      this.polymorphic = [() => BugResource];
      this.attribute('titel', 'string');
    }
  }
  class BugResource extends TaskResource {
    static {
      this.type = 'bugs';
      this.attribute('severty', 'integer');
    }
  }
  // only the parent is served: its endpoint serves the child's records too
  t.deepEqual(problemsOf([TaskResource]), [
    'TaskResource.titel: not a column of model Task; did you mean "title"?',
    'BugResource.severty: not a column of model Task; did you mean "severity"?',
  ]);
});

test('relationships given lazily, by class, by type or inferred from their names all resolve', (t) => {
  const Base = applicationResource();
  class EmployeeResource extends Base {
    static {
      this.model = Employee;
      this.belongsTo('department');
      this.hasMany('positions', { resource: () => PositionResource });
      this.manyToMany('teams', { resource: 'teams', foreignKey: { employee_teams: 'employee_id' } });
      this.polymorphicHasMany('notes', { as: 'notable' });
    }
  }
  class DepartmentResource extends Base {
    static {
      this.model = Department;
      this.hasMany('positions');
    }
  }
  class PositionResource extends Base {
    static {
      this.model = Position;
      this.belongsTo('employee', { resource: EmployeeResource });
    }
  }
  class TeamResource extends Base {
    static {
      this.model = Team;
    }
  }
  class NoteResource extends Base {
    static {
      this.model = Note;
    }
  }
  t.deepEqual(problemsOf([EmployeeResource, DepartmentResource, PositionResource, TeamResource, NoteResource]), []);
});

test('a many_to_many whose join table lacks the key named after the related type', refusedUntilFixed, (broken) => {
  const Base = applicationResource();
  class TeamResource extends Base {
    static {
      this.model = Team;
      if (broken) this.type = 'squads';
    }
  }
  class EmployeeResource extends Base {
    static {
      this.model = Employee;
      this.manyToMany('teams', { resource: () => TeamResource, foreignKey: { employee_teams: 'employee_id' } });
    }
  }
  return [TeamResource, EmployeeResource];
}, ['EmployeeResource.teams: foreign key squad_id is not a column of join table employee_teams']);
