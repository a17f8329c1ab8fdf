import test from 'ava';
import { Resource, ResourceConfigurationError } from '../../../core/index.ts';

test('attributes default to readable, writable, sortable, filterable and in the schema', (t) => {
  class Plain extends Resource {
    static {
      this.attribute('name', 'string');
    }
  }
  t.like(Plain.config.attributes.get('name'), { readable: true, writable: true, sortable: true, filterable: true, schema: true, extra: false });
});

test('any flag turns off with false; only enables just the listed flags; except disables them', (t) => {
  class Flags extends Resource {
    static {
      this.attribute('a', 'string', { writable: false });
      this.attribute('b', 'string', { only: ['readable', 'sortable'] });
      this.attribute('c', 'string', { except: ['filterable'], schema: false });
      this.attribute('d', 'string', { only: ['filterable'] });
    }
  }
  const attrs = Flags.config.attributes;
  t.like(attrs.get('a'), { readable: true, writable: false, sortable: true, filterable: true });
  t.like(attrs.get('b'), { readable: true, writable: false, sortable: true, filterable: false, schema: true });
  t.like(attrs.get('c'), { readable: true, writable: true, sortable: true, filterable: false, schema: false });
  t.like(attrs.get('d'), { readable: false, writable: false, sortable: false, filterable: true, schema: true });
});

test('readable and writable accept guards; filterable accepts "required"', (t) => {
  const guard = () => true;
  class Guarded extends Resource {
    static {
      this.attribute('a', 'string', { readable: 'isAdmin', writable: guard, filterable: 'required' });
    }
    isAdmin() {
      return this.context?.role === 'admin';
    }
  }
  t.like(Guarded.config.attributes.get('a'), { readable: 'isAdmin', writable: guard, filterable: 'required' });
});

test('id is an integer_id attribute on every Resource and can be redeclared', (t) => {
  class Default extends Resource {}
  class Uuid extends Resource {
    static {
      this.attribute('id', 'uuid');
    }
  }
  t.is(Default.config.attributes.get('id')?.type, 'integer_id');
  t.is(Uuid.config.attributes.get('id')?.type, 'uuid');
});

test('every Resource has the total: [count] stat', (t) => {
  class Any extends Resource {}
  t.deepEqual([...Any.config.stats.get('total')!.calculations.keys()], ['count']);
});

test('subclasses inherit settings and declarations; overriding never leaks upwards', (t) => {
  class Base extends Resource {
    static {
      this.abstractClass = true;
      this.endpointNamespace = '/api';
      this.defaultPageSize = 10;
      this.attributesWritableByDefault = false;
      this.attribute('created_at', 'datetime');
    }
  }
  class Child extends Base {
    static {
      this.defaultPageSize = 5;
      this.attribute('name', 'string');
    }
  }
  t.true(Base.abstractClass);
  t.false(Child.abstractClass, 'abstractClass is not inherited');
  t.is(Child.endpointNamespace, '/api');
  t.is(Child.defaultPageSize, 5);
  t.is(Base.defaultPageSize, 10);
  t.true(Child.config.attributes.has('created_at'));
  t.false(Base.config.attributes.has('name'));
  t.is(Child.config.attributes.get('name')?.writable, false, 'the inherited default applies');
});

test('every setting of the spec has its default', (t) => {
  class Defaults extends Resource {}
  const expected = {
    defaultPageSize: 20,
    maxPageSize: 1000,
    abstractClass: false,
    validateEndpoints: false,
    autolink: true,
    filtersAcceptNilByDefault: false,
    attributesReadableByDefault: true,
    attributesWritableByDefault: true,
    attributesFilterableByDefault: true,
    attributesSortableByDefault: true,
    attributesSchemaByDefault: true,
  };
  const actual = Object.fromEntries(Object.keys(expected).map((k) => [k, (Defaults as unknown as Record<string, unknown>)[k]]));
  t.deepEqual(actual, expected);
  t.is(Defaults.model, undefined);
  t.is(Defaults.baseUrl, undefined);
  t.is(Defaults.defaultSort, undefined);
  t.is(Defaults.polymorphic, undefined);
});

test('the type is inferred from the class name unless set', (t) => {
  class EmployeeTeamResource extends Resource {}
  class CompanyResource extends Resource {}
  class Named extends Resource {
    static {
      this.type = 'people';
    }
  }
  t.is(EmployeeTeamResource.type, 'employee_teams');
  t.is(CompanyResource.type, 'companies');
  t.is(Named.type, 'people');
});

test('primaryEndpoint sets path and actions; the default is /<type> with every action', (t) => {
  class Teams extends Resource {
    static {
      this.type = 'teams';
      this.endpointNamespace = '/api/v1';
    }
  }
  class Custom extends Teams {
    static {
      this.primaryEndpoint('/squads', ['index', 'show']);
    }
  }
  t.deepEqual(Teams.endpoints, [{ path: '/api/v1/teams', actions: ['index', 'show', 'create', 'update', 'destroy'] }]);
  t.deepEqual(Custom.endpoints, [{ path: '/api/v1/squads', actions: ['index', 'show'] }]);
});

test('enum types need an allow list; unknown types are refused with the known ones listed', (t) => {
  t.throws(
    () => {
      class Bad extends Resource {
        static {
          this.attribute('state', 'string_enum');
        }
      }
      return Bad;
    },
    { instanceOf: ResourceConfigurationError, message: /needs an allow: list/ },
  );
  t.throws(
    () => {
      class Bad extends Resource {
        static {
          // @ts-expect-error an unknown type name fails to compile, and at startup for JavaScript callers
          this.attribute('state', 'strin');
        }
      }
      return Bad;
    },
    { message: /Unknown type "strin"; known types: string, integer/ },
  );
});

test('a filter with no attribute creates a filter-only attribute and needs a type', (t) => {
  class Filters extends Resource {
    static {
      this.filter('employee_id', 'integer_id');
    }
  }
  t.like(Filters.config.attributes.get('employee_id'), { readable: false, writable: false, sortable: false, filterable: true, type: 'integer_id' });
  t.throws(() => {
    class Bad extends Resource {
      static {
        this.filter('mystery');
      }
    }
    return Bad;
  }, { message: /give it a type/ });
});

test('a sort with no attribute creates a sort-only attribute', (t) => {
  class Sorts extends Resource {
    static {
      this.sort('popularity', 'integer', (scope: unknown) => scope);
    }
  }
  t.like(Sorts.config.attributes.get('popularity'), { readable: false, writable: false, sortable: true, filterable: false });
});

test('extra attributes are read-only, unsortable and unfilterable', (t) => {
  class Extra extends Resource {
    static {
      this.extraAttribute('score', 'integer');
    }
  }
  t.like(Extra.config.attributes.get('score'), { extra: true, writable: false, sortable: false, filterable: false, readable: true });
});

test('stats take built-in calculation names or functions; unknown names are refused', (t) => {
  const median = () => 1;
  class Stats extends Resource {
    static {
      this.stat({ age: ['average', 'maximum'] });
      this.stat('age', { median });
    }
  }
  t.deepEqual([...Stats.config.stats.get('age')!.calculations.entries()], [['average', 'average'], ['maximum', 'maximum'], ['median', median]]);
  t.throws(() => {
    class Bad extends Resource {
      static {
        // @ts-expect-error not a built-in calculation
        this.stat({ age: ['mean'] });
      }
    }
    return Bad;
  }, { message: /unknown calculation "mean"/ });
});

test('has and has_no are reserved for filters on related records: no filter or filterable attribute takes either name', (t) => {
  const declare = (fn: (resource: typeof Resource) => void) => () => {
    class Reserved extends Resource {
      static {
        fn(this);
      }
    }
    return Reserved;
  };
  for (const name of ['has', 'has_no']) {
    t.throws(declare((r) => r.attribute(name, 'boolean')), { instanceOf: ResourceConfigurationError, message: new RegExp(`filter\\[${name}\\] is reserved`) });
    t.throws(declare((r) => r.filter(name, 'string')), { instanceOf: ResourceConfigurationError, message: /reserved/ });
    t.notThrows(declare((r) => r.attribute(name, 'boolean', { filterable: false })), 'an attribute that is not filterable may keep the name');
    t.notThrows(declare((r) => r.extraAttribute(name, 'boolean', () => true)), 'extra attributes are never filterable');
  }
});
