import test from 'ava';
import { Resource, type ResourceObject } from '../../../core/index.ts';
import { SequelizeAdapter } from '../../../plugins/sequelize/index.ts';
import { openDirectory, type Directory } from '../../support/directory.ts';

/** `relationshipLinks`: what the `links` of a relationship object point at. */
let dir: Directory;
const classes: Record<string, typeof Resource> = {};
test.before(async () => {
  dir = await openDirectory({ name: 'sqlite', url: ':memory:' }, 'relationship_link', 20);
  const models = dir.models;
  class LinkBase extends Resource {
    static {
      this.abstractClass = true;
      this.adapter = SequelizeAdapter;
      this.endpointNamespace = '/v2';
    }
  }
  class FilterStaff extends LinkBase {
    static {
      this.model = models.Employee;
      this.type = 'filter_staff';
      this.hasMany('jobs', { resource: () => classes.Job!, foreignKey: 'employee_id' });
    }
  }
  class EndpointStaff extends FilterStaff {
    static {
      this.type = 'endpoint_staff';
      this.relationshipLinks = 'endpoints';
      this.baseUrl = 'https://api.example.com';
      this.hasMany('quiet_jobs', { resource: () => classes.Job!, foreignKey: 'employee_id', link: false });
    }
  }
  class Job extends LinkBase {
    static {
      this.model = models.Position;
      this.type = 'jobs';
      this.relationshipLinks = 'endpoints';
      this.filter('employee_id', 'integer_id');
      this.belongsTo('department', { resource: () => classes.Unit! });
    }
  }
  class Unit extends LinkBase {
    static {
      this.model = models.Department;
      this.type = 'units';
      this.relationshipLinks = 'endpoints';
      this.primaryEndpoint('/units', ['index']);
      this.hasMany('jobs', { resource: () => Job, foreignKey: 'department_id' });
    }
  }
  Object.assign(classes, { FilterStaff, EndpointStaff, Job, Unit });
});
test.after.always(async () => dir?.sequelize.close());

const relationshipsOf = async (resource: typeof Resource, id: number) => ((await resource.find({ id }).toJsonapi()).data as ResourceObject).relationships;

test('filters, the default: the related index filtered to the record, as before', async (t) => {
  t.is(Resource.relationshipLinks, 'filters');
  t.deepEqual(await relationshipsOf(classes.FilterStaff!, 1), { jobs: { meta: { included: false }, links: { related: '/v2/jobs?filter[employee_id]=1' } } });
});

test('endpoints: self and related below the record, absolute with a baseUrl; link: false still renders none', async (t) => {
  t.deepEqual(await relationshipsOf(classes.EndpointStaff!, 2), {
    jobs: { meta: { included: false }, links: { self: 'https://api.example.com/v2/endpoint_staff/2/relationships/jobs', related: 'https://api.example.com/v2/endpoint_staff/2/jobs' } },
    quiet_jobs: { meta: { included: false } },
  });
});

test('endpoints: a belongs_to with a null key still links (its related endpoint answers null)', async (t) => {
  const orphan = (await dir.models.Position.findOne({ where: { department_id: null } }))!;
  t.deepEqual(await relationshipsOf(classes.Job!, orphan.id), {
    department: { meta: { included: false }, links: { self: `/v2/jobs/${orphan.id}/relationships/department`, related: `/v2/jobs/${orphan.id}/department` } },
  });
});

test('endpoints: a Resource that does not show its records has no relationship endpoints to link to', async (t) => {
  const doc = await classes.Unit!.all({ page: { size: 1 } }).toJsonapi();
  t.deepEqual((doc.data as ResourceObject[])[0]!.relationships, { jobs: { meta: { included: false } } });
});
