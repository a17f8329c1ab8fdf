import test from 'ava';
import { Resource } from '../../../core/index.ts';
import { SequelizeAdapter, type SequelizeScope } from '../../../plugins/sequelize/index.ts';
import { applicationResource, Employee, problemsOf, refusedUntilFixed } from '../../support/check-fixtures.ts';

/** checkResources against a Resource's model: each mistake refused with the message a user sees, and passed once fixed. */

test('an attribute that is not a column, with a near name: did you mean', refusedUntilFixed, (broken) => {
  const Base = applicationResource();
  class EmployeeResource extends Base {
    static {
      this.model = Employee;
      this.attribute(broken ? 'titel' : 'title', 'string');
    }
  }
  return [EmployeeResource];
}, ['EmployeeResource.titel: not a column of model Employee; did you mean "title"?']);

test('an attribute the model does not have at all: compute it, or declare it virtual', refusedUntilFixed, (broken) => {
  const Base = applicationResource();
  class EmployeeResource extends Base {
    static {
      this.model = Employee;
      if (broken) this.attribute('nickname', 'string');
      else this.attribute('nickname', 'string', { virtual: true });
    }
  }
  return [EmployeeResource];
}, ['EmployeeResource.nickname: not a column of model Employee; compute it with a block, or declare it { virtual: true } if its records carry it another way']);

test('a block, a model getter, a VIRTUAL attribute or virtual: true each supply an attribute the table lacks', (t) => {
  const Base = applicationResource();
  class EmployeeResource extends Base {
    static {
      this.model = Employee;
      this.attribute('shouted', 'string', { only: ['readable'] }, (e: Employee) => e.first_name.toUpperCase());
      this.attribute('full_name', 'string', { writable: false, virtual: true });
      this.attribute('initials', 'string', { only: ['readable', 'writable'] });
      this.attribute('password', 'string', { only: ['writable'], virtual: true });
      this.extraAttribute('score', 'integer', () => 1);
    }
  }
  t.deepEqual(problemsOf([EmployeeResource]), []);
});

test('a Resource with no model', refusedUntilFixed, (broken) => {
  const Base = applicationResource();
  class EmployeeResource extends Base {
    static {
      if (!broken) this.model = Employee;
      this.attribute('title', 'string');
    }
  }
  return [EmployeeResource];
}, ['EmployeeResource.model: not set; set this.model to the model it serves, or override baseScope()']);

test('a Resource with no model but a base scope of its own, an abstract one, or one whose subclass sets it, passes', (t) => {
  class Scoped extends Resource {
    static {
      this.adapter = SequelizeAdapter;
    }
    override baseScope() {
      return Employee;
    }
  }
  class Shared extends Resource {
    static {
      this.abstractClass = true;
      this.adapter = SequelizeAdapter;
      this.attribute('title', 'string');
    }
  }
  class EmployeeResource extends Shared {
    static {
      this.model = Employee;
    }
  }
  t.deepEqual(problemsOf([Scoped, Shared, EmployeeResource]), []);
});

test('a Resource with no adapter', refusedUntilFixed, (broken) => {
  class EmployeeResource extends Resource {
    static {
      this.model = Employee;
      if (!broken) this.adapter = SequelizeAdapter;
    }
  }
  return [EmployeeResource];
}, ['EmployeeResource.adapter: not set; set this.adapter (SequelizeAdapter, say) here or on a base class it extends']);

test('a filter on no column', refusedUntilFixed, (broken) => {
  const Base = applicationResource();
  class EmployeeResource extends Base {
    static {
      this.model = Employee;
      this.filter(broken ? 'titel' : 'title', 'string');
    }
  }
  return [EmployeeResource];
}, ['EmployeeResource.titel: filter[titel] needs a column, and model Employee has none by that name; did you mean "title"?']);

test('a filter of its own operators needs no column; built-in operators left beside them do', refusedUntilFixed, (broken) => {
  const Base = applicationResource();
  const eq = (scope: SequelizeScope, names: string[]) => scope.where({ first_name: names });
  class EmployeeResource extends Base {
    static {
      this.model = Employee;
      this.filter('name', 'string', broken ? {} : { only: ['eq'] }, { eq });
    }
  }
  return [EmployeeResource];
}, [
  'EmployeeResource.name: filter[name][not_eq|eql|not_eql|prefix|not_prefix|suffix|not_suffix|match|not_match] needs a column, and model Employee has none by that name; give each a function of its own, or keep the filter to only: [\'eq\']',
]);

test('a filter on a computed attribute, declared explicitly', refusedUntilFixed, (broken) => {
  const Base = applicationResource();
  class EmployeeResource extends Base {
    static {
      this.model = Employee;
      this.attribute('full_name', 'string', { writable: false, virtual: true });
      if (broken) this.filter('full_name');
      else this.filter('full_name', { only: ['eq'] }, { eq: (scope: SequelizeScope, names: string[]) => scope.where({ last_name: names }) });
    }
  }
  return [EmployeeResource];
}, ['EmployeeResource.full_name: filter[full_name] needs a column, and model Employee has none by that name; give the filter operators of its own ({ eq: (scope, value) => … })']);

test('a computed attribute is neither filterable nor sortable unless asked, so nothing is reported', (t) => {
  const Base = applicationResource();
  class EmployeeResource extends Base {
    static {
      this.model = Employee;
      this.attribute('shouted', 'string', (e: Employee) => e.first_name.toUpperCase());
      this.attribute('whispered', 'string', { virtual: true });
    }
  }
  t.deepEqual(problemsOf([EmployeeResource]), []);
  const { shouted, whispered } = Object.fromEntries(EmployeeResource.config.attributes);
  t.like(shouted, { readable: true, filterable: false, sortable: false });
  t.like(whispered, { readable: true, writable: true, filterable: false, sortable: false });
});

test('a block attribute asked to be filtered or sorted must say how', refusedUntilFixed, (broken) => {
  const Base = applicationResource();
  class EmployeeResource extends Base {
    static {
      this.model = Employee;
      this.attribute('shouted', 'string', { sortable: true }, (e: Employee) => e.first_name.toUpperCase());
      if (!broken) this.sort('shouted', (scope: SequelizeScope, direction: 'asc' | 'desc') => scope.order(['first_name', direction]));
    }
  }
  return [EmployeeResource];
}, ['EmployeeResource.shouted: sort=shouted needs a column, and model Employee has none by that name; give the sort a block ((scope, direction) => …)']);

test('a model getter left filterable and sortable by default: declare it virtual', refusedUntilFixed, (broken) => {
  const Base = applicationResource();
  class EmployeeResource extends Base {
    static {
      this.model = Employee;
      this.attribute('full_name', 'string', { writable: false, ...(broken ? {} : { virtual: true }) });
    }
  }
  return [EmployeeResource];
}, ['EmployeeResource.full_name: filter[full_name] and sort=full_name need a column, and model Employee has none by that name (full_name is the model\'s getter or VIRTUAL attribute); declare it { virtual: true }, which is then neither filtered nor sorted unless asked, or give it a filter or sort of its own']);

test('a sort on no column', refusedUntilFixed, (broken) => {
  const Base = applicationResource();
  class EmployeeResource extends Base {
    static {
      this.model = Employee;
      if (broken) this.sort('seniority', 'integer');
      else this.sort('seniority', 'integer', (scope: SequelizeScope, direction) => scope.order(['age', direction]));
    }
  }
  return [EmployeeResource];
}, ['EmployeeResource.seniority: sort=seniority needs a column, and model Employee has none by that name; give the sort a block ((scope, direction) => …)']);

test('a stat on no column', refusedUntilFixed, (broken) => {
  const Base = applicationResource();
  class EmployeeResource extends Base {
    static {
      this.model = Employee;
      this.stat({ [broken ? 'agee' : 'age']: ['average', 'maximum', 'count'] });
    }
  }
  return [EmployeeResource];
}, ['EmployeeResource.agee: stat average, maximum needs a column, and model Employee has none by that name; did you mean "age"?']);

test('a stat of count alone, or of calculations of its own, needs no column', (t) => {
  const Base = applicationResource();
  class EmployeeResource extends Base {
    static {
      this.model = Employee;
      this.stat({ headcount: ['count'] });
      this.stat('tenure', { median: () => 3 });
    }
  }
  t.deepEqual(problemsOf([EmployeeResource]), []);
});

test('a filter whose allow: list its type refuses is reported, not left to the first request', (t) => {
  const Base = applicationResource();
  class EmployeeResource extends Base {
    static {
      this.model = Employee;
      this.filter('age', 'integer', { allow: ['old'] });
    }
  }
  t.deepEqual(problemsOf([EmployeeResource]), ['EmployeeResource.age: a value of filter[age]\'s allow: or deny: list fails its type: "old" should be type integer']);
});
