import test from 'ava';
import { ResourceConfigurationError } from '../../../core/index.ts';
import { openDirectory, tableCounts, type Directory } from '../../support/directory.ts';

/** Persistence hooks and overridable steps, in the order the spec gives them. */
let dir: Directory;
test.before(async () => {
  dir = await openDirectory({ name: 'sqlite', url: ':memory:' }, 'hooks', 5);
});
test.after.always(async () => dir?.sequelize.close());

function tracedResource(log: string[], only?: { only?: Array<'create' | 'update' | 'destroy'> }) {
  return class Traced extends dir.resources.DepartmentResource {
    static {
      this.type = 'departments';
      this.beforeAttributes((attributes: Record<string, unknown>) => void log.push(`beforeAttributes ${JSON.stringify(attributes)}`), only);
      this.aroundAttributes('wrapAttributes', only);
      this.afterAttributes((model: { name: string }) => void log.push(`afterAttributes ${model.name}`), only);
      this.beforeSave('beforeSaving', only);
      this.aroundSave('wrapSave', only);
      this.afterSave((model: { id: number }) => void log.push(`afterSave ${typeof model.id}`), only);
      this.aroundPersistence('wrapPersistence', only);
      this.beforeCommit(() => void log.push('beforeCommit'), only);
      this.beforeDestroy(() => void log.push('beforeDestroy'));
      this.afterDestroy(() => void log.push('afterDestroy'));
    }
    beforeSaving(model: { name: string }) {
      log.push(`beforeSave ${model.name}`);
    }
    async wrapAttributes(attributes: Record<string, unknown>, proceed: () => Promise<unknown>) {
      log.push('aroundAttributes in');
      attributes.name = `${String(attributes.name)}!`;
      const model = await proceed();
      log.push('aroundAttributes out');
      return model;
    }
    async wrapSave(_model: unknown, proceed: () => Promise<void>) {
      log.push('aroundSave in');
      await proceed();
      log.push('aroundSave out');
    }
    async wrapPersistence(_attributes: unknown, proceed: () => Promise<unknown>) {
      log.push('aroundPersistence in');
      const model = await proceed();
      log.push('aroundPersistence out');
      return model;
    }
  };
}

test.serial('create runs every hook in order, around hooks wrapping their step', async (t) => {
  const log: string[] = [];
  const Traced = tracedResource(log);
  const write = Traced.build({ data: { type: 'departments', attributes: { name: 'Ops' } } });
  t.true(await write.save());
  t.deepEqual(log, [
    'aroundPersistence in',
    'beforeAttributes {"name":"Ops"}',
    'aroundAttributes in',
    'aroundAttributes out',
    'afterAttributes Ops!',
    'beforeSave Ops!',
    'aroundSave in',
    'aroundSave out',
    'afterSave number',
    'aroundPersistence out',
    'beforeCommit',
  ]);
  t.is((write.data as { name: string }).name, 'Ops!');
});

test.serial('only and except limit hooks to actions; destroy runs its own hooks', async (t) => {
  const log: string[] = [];
  const Traced = tracedResource(log, { only: ['update'] });
  const write = Traced.build({ data: { type: 'departments', attributes: { name: 'Quiet' } } });
  t.true(await write.save());
  t.deepEqual(log, []);
  const id = (write.data as { id: number }).id;
  t.true(await Traced.find({ id }).update({ data: { type: 'departments', attributes: { name: 'Loud' } } }));
  t.true(log.includes('beforeSave Loud!'));
  log.length = 0;
  t.true(await Traced.find({ id }).destroy());
  t.deepEqual(log, ['beforeDestroy', 'afterDestroy']);
});

test.serial('an error in beforeCommit rolls everything back', async (t) => {
  const before = await tableCounts(dir.models);
  class Doomed extends dir.resources.EmployeeResource {
    static {
      this.type = 'employees';
      this.beforeCommit(() => {
        throw new Error('audit log unavailable');
      });
    }
  }
  const write = Doomed.build({
    data: { type: 'employees', attributes: { first_name: 'A', last_name: 'B' }, relationships: { positions: { data: [{ type: 'positions', 'temp-id': 'p' }] } } },
    included: [{ type: 'positions', 'temp-id': 'p', attributes: { title: 'T' } }],
  });
  await t.throwsAsync(write.save(), { message: 'audit log unavailable' });
  t.deepEqual(await tableCounts(dir.models), before);
});

test.serial('beforeCommit runs after every record is processed and sees them inside the transaction', async (t) => {
  let seen = -1;
  class Counting extends dir.resources.EmployeeResource {
    static {
      this.type = 'employees';
      this.beforeCommit(async function (this: InstanceType<typeof Counting>, employee: { id: number }) {
        seen = (await dir.resources.PositionResource.all({ filter: { employee_id: employee.id } }).data as unknown[]).length;
      });
    }
  }
  const write = Counting.build({
    data: { type: 'employees', attributes: { first_name: 'A', last_name: 'B' }, relationships: { positions: { data: [{ type: 'positions', 'temp-id': 'p' }, { type: 'positions', 'temp-id': 'q' }] } } },
    included: [{ type: 'positions', 'temp-id': 'p', attributes: { title: 'T' } }, { type: 'positions', 'temp-id': 'q', attributes: { title: 'U' } }],
  });
  t.true(await write.save());
  t.is(seen, 2);
});

test.serial('build, assignAttributes, save and delete can be overridden', async (t) => {
  const calls: string[] = [];
  class Custom extends dir.resources.DepartmentResource {
    static {
      this.type = 'departments';
    }
    override build(model: unknown) {
      calls.push('build');
      return super.build(model);
    }
    override assignAttributes(model: object, attributes: Record<string, unknown>) {
      calls.push('assign');
      return super.assignAttributes(model, { ...attributes, name: String(attributes.name).toUpperCase() });
    }
    override async save(model: object) {
      calls.push('save');
      await super.save(model);
    }
    override async delete(model: object) {
      calls.push('delete');
      await super.delete(model);
    }
  }
  const write = Custom.build({ data: { type: 'departments', attributes: { name: 'quiet' } } });
  t.true(await write.save());
  const row = await dir.models.Department.findByPk((write.data as { id: number }).id);
  t.is(row!.name, 'QUIET');
  t.true(await Custom.find({ id: row!.id }).destroy());
  t.deepEqual(calls, ['build', 'assign', 'save', 'delete']);
});

test('around hooks take method names only, and must proceed', async (t) => {
  t.throws(() => {
    class Bad extends dir.resources.DepartmentResource {
      static {
        // @ts-expect-error around hooks take a method name; a JavaScript caller's block is refused at startup
        this.aroundSave(() => undefined);
      }
    }
    return Bad;
  }, { instanceOf: ResourceConfigurationError, message: /takes the name of a Resource method/ });
  class Lazy extends dir.resources.DepartmentResource {
    static {
      this.type = 'departments';
      this.aroundSave('skip');
    }
    skip() {
      return undefined;
    }
  }
  await t.throwsAsync(Lazy.build({ data: { type: 'departments', attributes: { name: 'x' } } }).save(), { message: /must call proceed/ });
});

test.serial("a model's own validation hooks run once per record written, on create and on update", async (t) => {
  const calls: string[] = [];
  const Department = dir.models.Department;
  const key = 'count-validations';
  Department.addHook('beforeValidate', key, (record) => void calls.push(`beforeValidate ${String(record.get('name'))}`));
  Department.addHook('afterValidate', key, (record) => void calls.push(`afterValidate ${String(record.get('name'))}`));
  t.teardown(() => {
    Department.removeHook('beforeValidate', key);
    Department.removeHook('afterValidate', key);
  });
  const created = dir.resources.DepartmentResource.build({ data: { type: 'departments', attributes: { name: 'Once' } } });
  t.true(await created.save());
  const id = String((created.data as { id: number }).id);
  t.true(await dir.resources.DepartmentResource.find({ id }).update({ data: { type: 'departments', attributes: { name: 'Twice' } } }));
  t.deepEqual(calls, ['beforeValidate Once', 'afterValidate Once', 'beforeValidate Twice', 'afterValidate Twice']);
  // the validation that ran is the one that counts: an invalid record is still refused, and nothing written
  const invalid = dir.resources.DepartmentResource.build({ data: { type: 'departments', attributes: { name: '' } } });
  t.false(await invalid.save());
  t.is(await Department.count({ where: { name: '' } }), 0);
});
