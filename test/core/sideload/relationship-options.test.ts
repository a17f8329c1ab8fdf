import test from 'ava';
import { configure, muralConfig, withContext, type JsonApiDocument, type ResourceObject } from '../../../core/index.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, type Directory } from '../../support/directory.ts';

type Linkage = { type: string; id: string };
const data = (doc: JsonApiDocument) => doc.data as ResourceObject[];
const linked = (object: ResourceObject, name: string) => {
  const value = (object.relationships![name] as { data?: Linkage[] | Linkage | null }).data;
  return value === undefined || value === null ? value : Array.isArray(value) ? value.map((l) => l.id) : value.id;
};

/** Relationship options and customization blocks, on Resources derived from the example's. */
for (const db of testDatabases()) {
  let dir: Directory;
  test.before(async () => {
    dir = await openDirectory(db, 'relationship_options', 60);
    // the links these tests read are the default, filter-style ones; the example itself links to its relationship endpoints
    for (const resource of Object.values(dir.resources)) resource.relationshipLinks = 'filters';
  });
  test.after.always(async () => dir?.sequelize.close());

  test.serial(`${db.name}: foreignKey, primaryKey and resource (class, name or thunk) are honoured`, async (t) => {
    const { EmployeeResource, PositionResource } = dir.resources;
    class Staff extends EmployeeResource {
      static {
        this.type = 'employees';
        this.hasMany('jobs', { resource: () => PositionResource, foreignKey: 'employee_id', primaryKey: 'id' });
        this.hasMany('roles', { resource: 'PositionResource' });
        this.hasMany('posts', { resource: PositionResource, foreignKey: 'employee_id' });
      }
    }
    const doc = await Staff.find({ id: 2, include: 'jobs,roles,posts' }).toJsonapi();
    const positions = (await dir.models.Position.findAll({ where: { employee_id: 2 }, order: [['id', 'ASC']] })).map((p) => String(p.id));
    const employee = doc.data as ResourceObject;
    t.deepEqual(linked(employee, 'jobs'), positions);
    t.deepEqual(linked(employee, 'posts'), positions);
    t.deepEqual(linked(employee, 'roles'), positions, 'roles infers employee_id from the parent type');
  });

  test.serial(`${db.name}: params edits the query sent to the related Resource`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const seen: unknown[] = [];
    class Senior extends EmployeeResource {
      static {
        this.type = 'employees';
        this.hasMany('senior_positions', {
          resource: 'positions',
          params: (params, parents: Array<{ id: number }>) => {
            seen.push(parents.map((p) => p.id));
            params.filter = { ...params.filter, rank: { gte: 5 } };
            params.sort = ['-rank'];
          },
        });
      }
    }
    const doc = await Senior.all({ include: 'senior_positions', filter: { id: '1,2,3' } }).toJsonapi();
    t.deepEqual(seen.map((parents) => [...(parents as number[])].sort()), [[1, 2, 3]]);
    const ranks = doc.included!.map((p) => p.attributes.rank as number);
    t.true(ranks.every((r) => r >= 5));
  });

  test.serial(`${db.name}: assignEach picks each parent's children; assign controls everything`, async (t) => {
    const { EmployeeResource } = dir.resources;
    class Picky extends EmployeeResource {
      static {
        this.type = 'employees';
        this.hasMany('top_position', {
          resource: 'positions',
          assignEach: (employee: { id: number }, positions: Array<{ employee_id: number; rank: number }>) =>
            positions.filter((p) => p.employee_id === employee.id).sort((a, b) => b.rank - a.rank).slice(0, 1),
        });
        this.hasMany('everyone_positions', {
          resource: 'positions',
          assign: (employees: object[], positions: object[], assign) => {
            for (const employee of employees) assign(employee, positions);
          },
        });
      }
    }
    const doc = await Picky.all({ include: 'top_position,everyone_positions', filter: { id: '4,5' } }).toJsonapi();
    const all = await dir.models.Position.findAll({ where: { employee_id: [4, 5] } });
    for (const employee of data(doc)) {
      const mine = all.filter((p) => String(p.employee_id) === employee.id).sort((a, b) => (b.rank ?? 0) - (a.rank ?? 0));
      t.deepEqual(linked(employee, 'top_position'), [String(mine[0]!.id)]);
      t.deepEqual((linked(employee, 'everyone_positions') as string[]).sort(), all.map((p) => String(p.id)).sort());
    }
  });

  test.serial(`${db.name}: link: false and autolink = false leave links out; so does a related Resource without index`, async (t) => {
    const { EmployeeResource, PositionResource } = dir.resources;
    class NoIndex extends PositionResource {
      static {
        this.type = 'jobs';
        this.primaryEndpoint('/jobs', ['show']);
      }
    }
    class Quiet extends EmployeeResource {
      static {
        this.type = 'employees';
        this.hasMany('positions', { link: false });
        this.hasMany('jobs', { resource: NoIndex });
      }
    }
    class Silent extends EmployeeResource {
      static {
        this.type = 'employees';
        this.autolink = false;
      }
    }
    const quiet = (await Quiet.find({ id: 1 }).toJsonapi()).data as ResourceObject;
    t.deepEqual(quiet.relationships!.positions, { meta: { included: false } });
    t.deepEqual(quiet.relationships!.jobs, { meta: { included: false } });
    t.truthy((quiet.relationships!.teams as { links?: unknown }).links);
    const silent = (await Silent.find({ id: 1 }).toJsonapi()).data as ResourceObject;
    t.true(Object.values(silent.relationships!).every((r) => !('links' in (r as object))));
  });

  test.serial(`${db.name}: links follow settings changed after a Resource has rendered`, async (t) => {
    const { EmployeeResource } = dir.resources;
    class Later extends EmployeeResource {
      static {
        this.type = 'employees';
      }
    }
    const linksOf = async () => ((await Later.find({ id: 1 }).toJsonapi()).data as ResourceObject).relationships!.teams as { links?: { related: string } };
    t.regex((await linksOf()).links!.related, /\/teams\?filter\[employee_id\]=1$/);
    Later.autolink = false;
    t.is((await linksOf()).links, undefined);
    Later.autolink = true;
    t.regex((await linksOf()).links!.related, /\/teams\?filter\[employee_id\]=1$/);
  });

  test.serial(`${db.name}: single: only when one parent is requested`, async (t) => {
    const { EmployeeResource } = dir.resources;
    class Single extends EmployeeResource {
      static {
        this.type = 'employees';
        this.hasMany('positions', { single: true });
      }
    }
    await t.notThrowsAsync(Single.find({ id: 1, include: 'positions' }).data);
    await t.notThrowsAsync(Single.all({ filter: { id: 1 }, include: 'positions' }).data);
    t.like(await t.throwsAsync(Single.all({ include: 'positions' }).data), { status: 400, parameter: 'include', code: 'single_include' });
  });

  test.serial(`${db.name}: alwaysIncludeResourceIds gives linkage without including the records`, async (t) => {
    const { EmployeeResource } = dir.resources;
    class WithIds extends EmployeeResource {
      static {
        this.type = 'employees';
        this.hasMany('positions', { alwaysIncludeResourceIds: true });
      }
    }
    dir.resetQueries();
    const doc = await WithIds.all({ filter: { id: '1,2' } }).toJsonapi();
    t.is(dir.queries.length, 2, 'one query for every parent, not one per parent');
    t.is(doc.included, undefined);
    const positions = (await dir.models.Position.findAll({ where: { employee_id: 1 }, order: [['id', 'ASC']] })).map((p) => String(p.id));
    const first = data(doc).find((e) => e.id === '1')!;
    t.deepEqual(first.relationships!.positions, {
      data: positions.map((id) => ({ type: 'positions', id })),
      meta: { included: false },
      links: { related: '/api/v1/positions?filter[employee_id]=1' },
    });
  });

  test.serial(`${db.name}: a guard named as a string is looked up on the declaring Resource, then the related one`, async (t) => {
    const { EmployeeResource, PositionResource } = dir.resources;
    class GuardedPositions extends PositionResource {
      static {
        this.type = 'positions';
      }
      canSeePositions() {
        return this.context?.viewer === 'hr';
      }
    }
    class Owner extends EmployeeResource {
      static {
        this.type = 'employees';
        this.hasMany('positions', { resource: GuardedPositions, readable: 'canSeePositions' });
        this.hasMany('own_positions', { resource: 'positions', readable: 'ownGuard' });
      }
      ownGuard() {
        return this.context?.viewer === 'self';
      }
    }
    const relationshipsFor = async (viewer: string) =>
      Object.keys(((await withContext({ viewer }, () => Owner.find({ id: 1, include: 'positions,own_positions' }).toJsonapi())).data as ResourceObject).relationships!);
    t.true((await relationshipsFor('hr')).includes('positions'));
    t.false((await relationshipsFor('hr')).includes('own_positions'));
    t.true((await relationshipsFor('self')).includes('own_positions'));
    t.false((await relationshipsFor('self')).includes('positions'));
  });

  test.serial(`${db.name}: sibling sideloads run concurrently, at most maxConcurrentSideloads at a time, and keep the context`, async (t) => {
    const { EmployeeResource, PositionResource } = dir.resources;
    let active = 0;
    let peak = 0;
    const contexts: unknown[] = [];
    class SlowPositions extends PositionResource {
      static {
        this.type = 'positions';
      }
      override async resolve(scope: unknown) {
        active++;
        peak = Math.max(peak, active);
        contexts.push(this.context?.request);
        await new Promise((r) => setTimeout(r, 20));
        active--;
        return super.resolve(scope);
      }
    }
    class Busy extends EmployeeResource {
      static {
        this.type = 'employees';
        for (const name of ['a', 'b', 'c', 'd', 'e', 'f']) this.hasMany(name, { resource: SlowPositions, foreignKey: 'employee_id' });
      }
    }
    const run = () => withContext({ request: 'r1' }, () => Busy.find({ id: 1, include: 'a,b,c,d,e,f' }).toJsonapi());
    await run();
    t.is(peak, 4);
    t.deepEqual(new Set(contexts), new Set(['r1']));
    const saved = { ...muralConfig };
    try {
      peak = 0;
      configure({ maxConcurrentSideloads: 2 });
      await run();
      t.is(peak, 2);
      peak = 0;
      configure({ concurrency: false });
      await run();
      t.is(peak, 1);
    } finally {
      configure(saved);
    }
  });

  test.serial(`${db.name}: a custom relationship with no model association works through its Resource`, async (t) => {
    const { DepartmentResource } = dir.resources;
    class WithTopTeams extends DepartmentResource {
      static {
        this.type = 'departments';
        this.hasMany('core_teams', {
          resource: 'teams',
          params: (params) => void (params.filter = { ...params.filter, name: { suffix: 'Core' } }),
        });
      }
    }
    const doc = await WithTopTeams.find({ id: 2, include: 'core_teams' }).toJsonapi();
    t.deepEqual(doc.included!.map((team) => team.attributes.name), ['Design Core']);
  });
}
