import test from 'ava';
import { InvalidQueryError, type ResourceObject } from '../../../core/index.ts';
import { ApplicationResource } from '../../../examples/employee-directory/resources/application-resource.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, type Directory } from '../../support/directory.ts';

type PositionRow = { id: number; employee_id: number | null; rank: number | null };

/** Relationship options the example does not use, on its tables: what a related endpoint does with each. */
for (const db of testDatabases()) {
  let dir: Directory;
  let Staff: typeof ApplicationResource;
  let Role: typeof ApplicationResource;
  test.before(async () => {
    dir = await openDirectory(db, 'relationship_options', 30);
    const models = dir.models;
    class RoleResource extends ApplicationResource {
      static {
        this.model = models.Position;
        this.type = 'roles';
        this.attribute('title', 'string');
        this.attribute('rank', 'integer');
        // its own index needs a title; a relationship leading here does not, as include does not
        this.filter('title', { required: true });
      }
    }
    class StaffResource extends ApplicationResource {
      static {
        this.model = models.Employee;
        this.type = 'staff';
        this.maxIncludedRecords = 2;
        this.attribute('first_name', 'string');
        this.hasMany('roles', { resource: () => RoleResource, foreignKey: 'employee_id' });
        this.hasMany('senior_roles', {
          resource: () => RoleResource,
          foreignKey: 'employee_id',
          assignEach: (employee: { id: number }, positions: PositionRow[]) => positions.filter((p) => p.employee_id === employee.id && (p.rank ?? 0) >= 5),
        });
        this.hasOne('top_role', {
          resource: () => RoleResource,
          foreignKey: 'employee_id',
          params: (params) => void (params.sort = ['-rank']),
          link: false,
        });
      }
    }
    Staff = StaffResource;
    Role = RoleResource;
  });
  test.after.always(async () => dir?.sequelize.close());

  const idsOf = (doc: { data: unknown }) => (doc.data as ResourceObject[]).map((r) => r.id);
  /** Employees by how many positions they hold: Staff includes at most 2 records. */
  const positionCounts = async () => {
    const counts = new Map<number, number>();
    for (const p of await dir.models.Position.findAll()) counts.set(p.employee_id!, (counts.get(p.employee_id!) ?? 0) + 1);
    return counts;
  };

  test(`${db.name}: a required filter of the related Resource is not required under the relationship, as under include`, async (t) => {
    await t.throwsAsync(Role.all({}).data, { instanceOf: InvalidQueryError, message: /title/ });
    const positions = await dir.models.Position.findAll({ where: { employee_id: 3 }, order: [['id', 'ASC']] });
    t.deepEqual(idsOf(await Staff.find({ id: 3 }).related('roles').toJsonapi()), positions.map((p) => String(p.id)));
  });

  test(`${db.name}: an assignEach block picks the records, exactly as under include; no pages`, async (t) => {
    const counts = await positionCounts();
    const employee = (await dir.models.Position.findAll()).find((p) => (p.rank ?? 0) >= 5 && counts.get(p.employee_id!)! <= 2)!.employee_id!;
    const viaInclude = await Staff.find({ id: employee, include: 'senior_roles' }).toJsonapi();
    const linkage = ((viaInclude.data as ResourceObject).relationships!.senior_roles as { data: Array<{ id: string }> }).data.map((l) => l.id);
    const related = idsOf(await Staff.find({ id: employee }).related('senior_roles').toJsonapi());
    t.deepEqual(related, linkage);
    t.true(related.length > 0);
    const paged = await t.throwsAsync(Staff.find({ id: employee }).related('senior_roles', { page: { size: 1 } }).data, { instanceOf: InvalidQueryError });
    t.is(paged.parameter, 'page[size]');
  });

  test(`${db.name}: a picked relationship with more records than include would load is a 400, never cut short`, async (t) => {
    const crowded = [...(await positionCounts())].find(([, count]) => count > 2)![0];
    const error = await t.throwsAsync(Staff.find({ id: crowded }).related('senior_roles').data, { instanceOf: InvalidQueryError });
    t.is(error.code, 'too_many_included_records');
  });

  test(`${db.name}: a params block's sort picks the has_one record; link: false renders no links, the endpoint still answers`, async (t) => {
    const id = [...(await positionCounts())].find(([, count]) => count === 2)![0];
    const top = (await dir.models.Position.findOne({ where: { employee_id: id }, order: [['rank', 'DESC'], ['id', 'ASC']] }))!;
    const doc = await Staff.find({ id }).related('top_role').toJsonapi();
    t.is((doc.data as ResourceObject).id, String(top.id));
    const staff = await Staff.find({ id, include: 'top_role' }).toJsonapi();
    const relationships = (staff.data as ResourceObject).relationships!;
    t.deepEqual(relationships.top_role, { data: { type: 'roles', id: String(top.id) } });
    t.deepEqual(relationships.roles, { meta: { included: false }, links: { self: `/api/v1/staff/${id}/relationships/roles`, related: `/api/v1/staff/${id}/roles` } });
  });
}
