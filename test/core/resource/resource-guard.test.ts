import test from 'ava';
import { Forbidden, Resource, ResourceConfigurationError, withContext, type JsonApiDocument, type ResourceObject } from '../../../core/index.ts';
import { SequelizeAdapter } from '../../../plugins/sequelize/index.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, tableCounts, type Directory } from '../../support/directory.ts';

/**
 * `guard(guard, { only | except })` on a Resource: its actions, and every
 * relationship that leads to it even when the relationship itself has no
 * guard. Here departments may be read by admins only, and written by anyone.
 */
function defineResources(dir: Directory) {
  class Base extends Resource {
    static {
      this.abstractClass = true;
      this.adapter = SequelizeAdapter;
      this.endpointNamespace = '/guarded';
    }
    isAdmin(): boolean {
      return this.context?.role === 'admin';
    }
  }
  class DepartmentResource extends Base {
    static {
      this.model = dir.models.Department;
      this.type = 'departments';
      this.attribute('name', 'string');
      this.guard('isAdmin', { only: ['index', 'show'] });
    }
  }
  class PositionResource extends Base {
    static {
      this.model = dir.models.Position;
      this.type = 'positions';
      this.attribute('title', 'string');
      this.attribute('department_id', 'integer_id', { only: ['filterable'] });
      this.belongsTo('department', { resource: () => DepartmentResource }); // no guard of its own
    }
  }
  return { DepartmentResource, PositionResource };
}

const admin = <T>(fn: () => T): T => withContext({ role: 'admin' }, fn);
const first = (doc: JsonApiDocument) => [doc.data].flat()[0] as ResourceObject;

test('guard options are checked when declared', (t) => {
  t.throws(() => Resource.guard.call(class extends Resource {}, true, { only: ['list' as never] }), { instanceOf: ResourceConfigurationError, message: /unknown action "list"/ });
  t.throws(() => Resource.guard.call(class extends Resource {}, true, { only: ['index'], except: ['show'] }), { instanceOf: ResourceConfigurationError });
});

test('a subclass inherits its parent\'s guards and may add its own', (t) => {
  class Parent extends Resource {
    static {
      this.guard(false, { only: ['destroy'] });
    }
  }
  class Child extends Parent {
    static {
      this.guard(false, { only: ['create'] });
    }
  }
  t.is(Parent.config.guards.length, 1);
  t.deepEqual(Child.config.guards.map((g) => g.actions), [['destroy'], ['create']]);
});

for (const db of testDatabases('resource_guard')) {
  let dir: Directory;
  let resources: ReturnType<typeof defineResources>;
  test.before(async () => {
    dir = await openDirectory(db, 'resource_guard', 10);
    resources = defineResources(dir);
  });
  test.after.always(async () => {
    await dir?.sequelize.close();
  });

  test.serial(`${db.name}: the guarded actions are refused with Forbidden before any query; the others run`, async (t) => {
    const { DepartmentResource } = resources;
    dir.resetQueries();
    await t.throwsAsync(DepartmentResource.all({}).toJsonapi(), { instanceOf: Forbidden, message: 'You may not index departments' });
    await t.throwsAsync(DepartmentResource.find({ id: 1 }).data, { instanceOf: Forbidden, message: 'You may not show departments' });
    t.deepEqual(dir.queries, []);
    t.is(((await admin(() => DepartmentResource.all({}).data)) as unknown[]).length, 8);
    const created = DepartmentResource.build({ data: { type: 'departments', attributes: { name: 'Open door' } } });
    t.true(await created.save(), 'create is not guarded');
    const id = String((created.data as { id: number }).id);
    t.deepEqual(await created.toJsonapi(), { data: { type: 'departments', id, attributes: {} }, meta: {} }, 'a record the caller may not read shows its identity only');
    const renamed = DepartmentResource.find({ id: 1 });
    t.true(await renamed.update({ data: { type: 'departments', id: '1', attributes: {} } }));
    t.deepEqual((await renamed.toWrittenJsonapi()).data, { type: 'departments', id: '1', attributes: {} }, 'an update does not reveal the rest of the record');
  });

  test.serial(`${db.name}: a polymorphic parent's endpoint answers for each child's guard`, async (t) => {
    class Base extends Resource {
      static {
        this.abstractClass = true;
        this.adapter = SequelizeAdapter;
      }
    }
    class WorkResource extends Base {
      static {
        this.model = dir.models.Task;
        this.type = 'work';
        this.polymorphic = [() => BugWork, () => FeatureWork];
        this.polymorphicColumn = 'type';
        this.attribute('title', 'string');
      }
    }
    class BugWork extends WorkResource {
      static {
        this.type = 'bugs';
        this.guard(false, { only: ['destroy', 'index'] });
      }
    }
    class FeatureWork extends WorkResource {
      static {
        this.type = 'features';
      }
    }
    const task = (await dir.models.Task.findOne({ where: { type: 'features' } }))!;
    await t.throwsAsync(WorkResource.all({}).data, { instanceOf: Forbidden }, 'the parent lists bugs too');
    await t.throwsAsync(WorkResource.find({ id: task.id }).destroy(), { instanceOf: Forbidden }, 'the record could be a bug');
    t.true(await FeatureWork.find({ id: task.id }).destroy(), 'at the child endpoint, only the child guard counts');
    const bug = WorkResource.build({ data: { type: 'bugs', attributes: { title: 'x' } } });
    t.true(await bug.save(), 'create is not guarded for bugs');
  });

  test.serial(`${db.name}: a relationship without a guard of its own is hidden when its Resource refuses reading`, async (t) => {
    const { PositionResource } = resources;
    const guest = await PositionResource.find({ id: 1, include: 'department', filter: { 'department.name': 'x' }, fields: { departments: 'name' } }).toJsonapi();
    t.is(guest.included, undefined);
    t.false('department' in (first(guest).relationships ?? {}), 'no linkage, no meta, no link');
    const position = (await dir.models.Position.findAll()).find((p) => p.department_id !== null)!;
    const doc = await admin(() => PositionResource.find({ id: position.id, include: 'department' }).toJsonapi());
    t.deepEqual((first(doc).relationships!.department as { data: unknown }).data, { type: 'departments', id: String(position.department_id) });
    t.is(doc.included![0]!.type, 'departments');
  });

  test.serial(`${db.name}: sideposting follows the guarded actions; a write response leaves out what may not be read`, async (t) => {
    const { PositionResource } = resources;
    const before = await tableCounts(dir.models);
    const write = PositionResource.build({
      data: { type: 'positions', attributes: { title: 'Founder' }, relationships: { department: { data: { type: 'departments', 'temp-id': 'd', method: 'create' } } } },
      included: [{ type: 'departments', 'temp-id': 'd', attributes: { name: 'Skunkworks' } }],
    });
    t.true(await write.save(), JSON.stringify(write.errors));
    const response = await write.toJsonapi();
    t.is(response.included, undefined);
    t.false(JSON.stringify(response).includes('Skunkworks'));
    const after = await tableCounts(dir.models);
    t.is(after.Department, before.Department + 1, 'the create itself was allowed');
  });

  test.serial(`${db.name}: sideposting an action the guard covers is a 422 unwritable_relationship when the caller may read the relationship, and nothing is written`, async (t) => {
    class LockedDepartments extends resources.DepartmentResource {
      static {
        this.type = 'locked_departments';
        this.guard(function (this: Resource) {
          return this.context?.editor === true;
        }, { except: ['index', 'show'] });
      }
    }
    class LockedPositions extends resources.PositionResource {
      static {
        this.type = 'locked_positions';
        this.belongsTo('department', { resource: () => LockedDepartments });
      }
    }
    const before = await tableCounts(dir.models);
    const destroying = { data: { type: 'locked_positions', attributes: { title: 'Intern' }, relationships: { department: { data: { type: 'locked_departments', id: '1', method: 'destroy' as const } } } } };
    const write = admin(() => LockedPositions.build(destroying));
    t.false(await write.save());
    t.like(write.errors[0], { status: '422', source: { pointer: '/data/relationships/department/data' }, meta: { code: 'unwritable_relationship' } });
    t.deepEqual(await tableCounts(dir.models), before);
    const allowed = withContext({ role: 'admin', editor: true }, () => LockedPositions.build({ data: { type: 'locked_positions', attributes: { title: 'Intern' }, relationships: { department: { data: { type: 'locked_departments', id: '1' } } } } }));
    t.true(await allowed.save(), JSON.stringify(allowed.errors));
  });

  test.serial(`${db.name}: a relationship the caller may neither read nor write is sideposted into as one that does not exist`, async (t) => {
    class LockedDepartments extends resources.DepartmentResource {
      static {
        this.type = 'locked_departments';
        this.guard('isAdmin', { except: ['index', 'show'] });
      }
    }
    class LockedPositions extends resources.PositionResource {
      static {
        this.type = 'locked_positions';
        this.belongsTo('department', { resource: () => LockedDepartments });
      }
    }
    const before = await tableCounts(dir.models);
    const attempt = (name: string) => LockedPositions.build({ data: { type: 'locked_positions', attributes: { title: 'Intern' }, relationships: { [name]: { data: { type: 'locked_departments', id: '1' } } } } }).save();
    const hidden = await t.throwsAsync(attempt('department'));
    const unknown = await t.throwsAsync(attempt('departmenx'));
    t.like(hidden, { status: 400, code: 'unknown_relationship', pointer: '/data/relationships/department' });
    t.is(hidden.message.replace('department', 'departmenx'), unknown.message);
    t.deepEqual(await tableCounts(dir.models), before);
  });

}
