import test from 'ava';
import { breakingChanges, buildSchema, Resource } from '../../../core/index.ts';

/**
 * Each kind of breaking change `schema check` reports, and the additions it
 * lets through. Two versions of a small API are compared each time.
 */
/** What each version's base class offers the cases: the guard they name. */
declare class GuardedResource extends Resource {
  isAdmin(): boolean;
}

function api(change: (version: 'old' | 'new') => (r: typeof GuardedResource) => void) {
  const build = (version: 'old' | 'new') => {
    class Base extends Resource {
      static {
        this.abstractClass = true;
        this.endpointNamespace = '/api/v1';
      }
      isAdmin() {
        return this.context?.role === 'admin';
      }
    }
    class TeamResource extends Base {
      static {
        this.type = 'teams';
        this.attribute('name', 'string');
      }
    }
    class SquadResource extends Base {
      static {
        this.type = 'squads';
      }
    }
    class EmployeeResource extends Base {
      static {
        this.type = 'employees';
        change(version)(this);
      }
    }
    return buildSchema([EmployeeResource, TeamResource, SquadResource]);
  };
  return breakingChanges(build('old'), build('new'));
}

/** An adapter that pages by keyset, as far as the schema can tell. */
class KeysetAdapter {
  keyset(scope: unknown) {
    return scope;
  }
}

const cases: Array<[string, (r: typeof GuardedResource, v: 'old' | 'new') => void, string[]]> = [
  ['a removed attribute', (r, v) => v === 'old' && r.attribute('age', 'integer'), ['EmployeeResource: attribute :age was removed.', 'EmployeeResource: sort :age was removed.', 'EmployeeResource: filter :age was removed.']],
  ['a changed attribute type', (r, v) => r.attribute('age', v === 'old' ? 'integer' : 'string', { only: ['readable'] }), ['EmployeeResource: attribute :age changed type from "integer" to "string".']],
  ['a readable attribute becoming guarded', (r, v) => r.attribute('salary', 'integer', { only: ['readable'], readable: v === 'old' ? true : 'isAdmin' }), ['EmployeeResource: attribute :salary changed flag :readable from true to "guarded".']],
  ['a writable attribute becoming read-only', (r, v) => r.attribute('salary', 'integer', { only: ['readable', 'writable'], writable: v === 'old' }), ['EmployeeResource: attribute :salary changed flag :writable from true to false.']],
  ['a removed extra attribute', (r, v) => v === 'old' && r.extraAttribute('score', 'integer'), ['EmployeeResource: extra attribute :score was removed.']],
  ['a removed sort', (r, v) => r.attribute('age', 'integer', { only: v === 'old' ? ['sortable'] : ['readable'] }), ['EmployeeResource: sort :age was removed.']],
  ['a guarded sort', (r, v) => r.attribute('age', 'integer', { only: ['sortable'], sortable: v === 'old' ? true : 'isAdmin' }), ['EmployeeResource: sort :age became guarded.']],
  ['a removed operator', (r, v) => r.filter('age', 'integer', v === 'old' ? {} : { except: ['gt'] }), ['EmployeeResource: filter :age removed operator "gt".']],
  ['a filter becoming required', (r, v) => r.filter('age', 'integer', { required: v === 'new' }), ['EmployeeResource: filter :age went from optional to required.']],
  ['a filter becoming single', (r, v) => r.filter('age', 'integer', { single: v === 'new' }), ['EmployeeResource: filter :age became singular.']],
  ['a filter gaining a dependency', (r, v) => {
    r.filter('age', 'integer', v === 'new' ? { dependent: ['name'] } : {});
    r.filter('name', 'string');
  }, ['EmployeeResource: filter :age now depends on :name.']],
  ['an allow list losing a value', (r, v) => r.filter('state', 'string', { allow: v === 'old' ? ['a', 'b'] : ['a'] }), ['EmployeeResource: filter :state no longer allows "b".']],
  ['a new allow list', (r, v) => r.filter('state', 'string', v === 'new' ? { allow: ['a'] } : {}), ['EmployeeResource: filter :state now only allows "a".']],
  ['a deny list gaining a value', (r, v) => r.filter('state', 'string', { deny: v === 'old' ? ['a'] : ['a', 'b'] }), ['EmployeeResource: filter :state now denies "b".']],
  ['a removed stat', (r, v) => v === 'old' && r.stat({ age: ['sum'] }), ['EmployeeResource: stat :age was removed.']],
  ['a removed calculation', (r, v) => r.stat({ age: v === 'old' ? ['sum', 'maximum'] : ['sum'] }), ['EmployeeResource: calculation :maximum was removed from stat :age.']],
  ['a removed relationship', (r, v) => v === 'old' && r.hasMany('teams'), ['EmployeeResource: relationship :teams was removed.']],
  ['a relationship becoming guarded', (r, v) => r.hasMany('teams', { readable: v === 'old' ? true : 'isAdmin' }), ['EmployeeResource: relationship :teams became guarded.']],
  ['a Resource becoming guarded', (r, v) => v === 'new' && r.guard('isAdmin'), ['EmployeeResource: resource became guarded for :index, :show, :create, :update, :destroy.']],
  ['a Resource guard covering more actions', (r, v) => r.guard('isAdmin', v === 'old' ? { only: ['destroy'] } : { except: ['index', 'show'] }), ['EmployeeResource: resource became guarded for :create, :update.']],
  ['a relationship becoming single', (r, v) => r.hasMany('teams', { single: v === 'new' }), ['EmployeeResource: relationship :teams became single: true.']],
  ['a relationship changing resource', (r, v) => r.hasMany('teams', { resource: v === 'old' ? 'teams' : 'squads' }), ['EmployeeResource: relationship :teams changed resource from TeamResource to SquadResource.']],
  ['a relationship changing kind', (r, v) => (v === 'old' ? r.hasMany('teams') : r.belongsTo('teams', { resource: 'teams' })), ['EmployeeResource: relationship :teams changed type from "has_many" to "belongs_to".']],
  ['a changed default sort', (r, v) => {
    r.attribute('age', 'integer');
    r.defaultSort = [{ age: v === 'old' ? 'asc' : 'desc' }];
  }, ['EmployeeResource: default sort changed from [{"age":"asc"}] to [{"age":"desc"}].']],
  ['a changed default page size', (r, v) => void (r.defaultPageSize = v === 'old' ? 20 : 10), ['EmployeeResource: default page size changed from 20 to 10.']],
  ['cursor pagination lost to a paginate block', (r, v) => {
    r.adapter = KeysetAdapter as never;
    if (v === 'new') r.paginate((scope: unknown) => scope);
  }, ['EmployeeResource: cursor pagination (page[after], page[before]) was removed.']],
  ['a version no longer declared', (r, v) => {
    r.attribute('lock_version', 'integer');
    if (v === 'old') r.versionAttribute = 'lock_version';
  }, ['EmployeeResource: conditional writes by version (If-Match, meta.version) were removed: records no longer carry lock_version.']],
  ['a removed action', (r, v) => r.primaryEndpoint('/employees', v === 'old' ? ['index', 'show', 'create'] : ['index', 'show']), ['EmployeeResource: Endpoint "/api/v1/employees" removed action :create.']],
  ['a removed endpoint', (r, v) => r.primaryEndpoint(v === 'old' ? '/employees' : '/staff'), ['EmployeeResource: Endpoint "/api/v1/employees" was removed.']],
];

for (const [what, change, expected] of cases) {
  test(`reports ${what}`, (t) => {
    t.deepEqual(api((v) => (r) => change(r, v)), expected);
  });
}

test('additions are not breaking', (t) => {
  const changes = api((v) => (r) => {
    r.attribute('name', 'string');
    if (v === 'new') {
      r.attribute('nickname', 'string');
      r.extraAttribute('score', 'integer');
      r.stat({ name: ['count'] });
      r.hasMany('teams');
    }
  });
  t.deepEqual(changes, []);
});

test('cursor pagination is in the schema; a schema.json from before it promised nothing', (t) => {
  class Keyset extends Resource {
    static {
      this.type = 'keysets';
      this.adapter = KeysetAdapter as never;
    }
  }
  const schema = buildSchema([Keyset]);
  t.is(schema.resources[0]!.cursor_pagination, true);
  const before = structuredClone(schema);
  delete (before.resources[0] as { cursor_pagination?: boolean }).cursor_pagination;
  const after = structuredClone(schema);
  after.resources[0]!.cursor_pagination = false;
  t.deepEqual(breakingChanges(before, after), []);
  t.deepEqual(breakingChanges(after, schema), [], 'gaining it is an addition');
});

test('the version attribute and the declared Cache-Control are in the schema; gaining a version is an addition', (t) => {
  class Versioned extends Resource {
    static {
      this.type = 'versioned';
      this.attribute('revision', 'integer');
      this.versionAttribute = 'revision';
      this.cacheControl = 'public, max-age=60';
    }
  }
  class Plain extends Resource {
    static {
      this.type = 'plain';
    }
  }
  const schema = buildSchema([Versioned, Plain]);
  t.like(schema.resources.find((r) => r.type === 'versioned'), { version_attribute: 'revision', cache_control: 'public, max-age=60' });
  const plain = schema.resources.find((r) => r.type === 'plain')!;
  t.is(plain.version_attribute, null);
  t.false('cache_control' in plain, 'the router decides it: private with a context function');
  t.deepEqual(api((v) => (r) => {
    r.attribute('lock_version', 'integer');
    if (v === 'new') r.versionAttribute = 'lock_version';
  }), []);
  const older = structuredClone(schema);
  for (const resource of older.resources) delete resource.version_attribute;
  t.deepEqual(breakingChanges(older, schema), [], 'a schema.json from before versions promised nothing');
});

test('client-generated ids are in the schema; accepting them is an addition, no longer accepting them is breaking', (t) => {
  class Open extends Resource {
    static {
      this.type = 'open';
      this.clientGeneratedIds = true;
    }
  }
  class Closed extends Resource {
    static {
      this.type = 'closed';
    }
  }
  const schema = buildSchema([Open, Closed]);
  t.true(schema.resources.find((r) => r.type === 'open')!.client_generated_ids);
  t.false('client_generated_ids' in schema.resources.find((r) => r.type === 'closed')!);
  t.deepEqual(api((v) => (r) => void (r.clientGeneratedIds = v === 'new')), []);
  t.deepEqual(api((v) => (r) => void (r.clientGeneratedIds = v === 'old')), ['EmployeeResource: creates naming their own id (client-generated ids) are no longer accepted.']);
});

test('guards becoming looser are not breaking', (t) => {
  t.deepEqual(api((v) => (r) => r.attribute('salary', 'integer', { readable: v === 'old' ? 'isAdmin' : true })), []);
  t.deepEqual(api((v) => (r) => r.guard('isAdmin', { only: v === 'old' ? ['index', 'destroy'] : ['destroy'] })), []);
});

test('a Resource guard is in the schema as the actions it covers', (t) => {
  class Guarded extends Resource {
    static {
      this.type = 'guarded';
      this.guard('isAdmin', { only: ['update', 'index'] });
      this.guard(() => true, { only: ['show'] });
    }
    isAdmin() {
      return false;
    }
  }
  class Open extends Resource {
    static {
      this.type = 'open';
      this.guard(true);
    }
  }
  const [guarded, open] = buildSchema([Guarded, Open]).resources;
  t.deepEqual(guarded!.guard, ['index', 'show', 'update'], 'in action order');
  t.false('guard' in open!, 'a guard that is always true guards nothing');
});

test('a removed resource and a removed type', (t) => {
  class A extends Resource {
    static {
      this.type = 'as';
    }
  }
  const old = buildSchema([A]);
  const now = buildSchema([]);
  old.types.money = { kind: 'scalar', description: 'Money.' };
  t.deepEqual(breakingChanges(old, now), ['A: resource was removed.', 'A: Endpoint "/as" was removed.', 'Schema: Type :money was removed.']);
});

test('the schema is deterministic and leaves out schema: false attributes', (t) => {
  class Secretive extends Resource {
    static {
      this.type = 'secrets';
      this.attribute('visible', 'string');
      this.attribute('hidden', 'string', { schema: false });
    }
  }
  const first = JSON.stringify(buildSchema([Secretive]));
  t.is(JSON.stringify(buildSchema([Secretive])), first);
  const resource = buildSchema([Secretive]).resources[0]!;
  t.deepEqual(Object.keys(resource.attributes), ['id', 'visible']);
  t.false('hidden' in resource.filters);
});
