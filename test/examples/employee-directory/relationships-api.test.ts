import test from 'ava';
import { testDatabases } from '../../support/databases.ts';
import { directoryServer } from '../../support/directory-server.ts';
import { ADMIN } from '../../support/example-auth.ts';

type Linkage = { type: string; id: string };
type Resource = { id: string; type: string; attributes: Record<string, unknown>; relationships: Record<string, { data?: Linkage | Linkage[] | null; links?: { self?: string; related: string } }> };
type Doc = { data: Resource | Resource[]; included?: Resource[]; meta: Record<string, unknown>; errors?: Array<{ source: unknown; detail: string }> };

const identify = (resource: Resource): Linkage => ({ type: resource.type, id: resource.id });

/** Compound documents over HTTP, and links a client can follow. */
for (const db of testDatabases()) {
  const { dir, client } = directoryServer(db, 'relationships_api', 80);
  const get = async (path: string, headers?: Record<string, string>) => (await client.get(path, headers)).body as Doc;

  test(`${db.name}: every related link returns exactly the records the included linkage lists`, async (t) => {
    const include = 'positions,current_position,teams,notes,tasks';
    const doc = await get(`/api/v1/employees/3?include=${include}`, ADMIN);
    const employee = doc.data as Resource;
    for (const name of include.split(',')) {
      const relationship = employee.relationships[name]!;
      t.deepEqual(relationship.links, { self: `/api/v1/employees/3/relationships/${name}`, related: `/api/v1/employees/3/${name}` });
      const followed = await get(relationship.links!.related, ADMIN);
      const linkage = await get(relationship.links!.self!, ADMIN);
      if (name === 'current_position') {
        // a to-one relationship: one resource (only the active position, as the params block says), never a list
        t.deepEqual(identify(followed.data as Resource), relationship.data);
        t.deepEqual(linkage.data, relationship.data);
      } else {
        t.deepEqual((followed.data as Resource[]).map(identify), relationship.data, name);
        t.deepEqual(linkage.data, relationship.data, name);
      }
    }
  });

  test(`${db.name}: belongs_to and polymorphic belongs_to links are followable`, async (t) => {
    const notes = await get('/api/v1/notes?include=notable&page[size]=40&sort=-id', ADMIN);
    for (const note of (notes.data as Resource[]).slice(0, 12)) {
      const linkage = note.relationships.notable!.data as Linkage;
      const followed = await get(note.relationships.notable!.links!.related, ADMIN);
      t.deepEqual(identify(followed.data as Resource), linkage);
    }
    const positions = await get('/api/v1/positions?include=department&filter[department_id]=null&page[size]=2');
    t.is((positions.data as Resource[]).length, 2);
    for (const position of positions.data as Resource[]) {
      t.is(position.relationships.department!.data, null);
      t.deepEqual(await get(position.relationships.department!.links!.related), { data: null, meta: {}, jsonapi: { version: '1.1' } });
    }
  });

  test(`${db.name}: a compound document over HTTP`, async (t) => {
    const doc = await get('/api/v1/positions/1?include=employee,department&fields[employees]=first_name&fields[departments]=name');
    const position = doc.data as Resource;
    const row = (await dir.models.Position.findByPk(1))!;
    t.deepEqual(position.relationships.employee!.data, { type: 'employees', id: String(row.employee_id) });
    const types = doc.included!.map((i) => i.type);
    t.deepEqual(types, row.department_id === null ? ['employees'] : ['employees', 'departments']);
    t.deepEqual(Object.keys(doc.included![0]!.attributes), ['first_name']);
  });

  test(`${db.name}: guests silently lose the notes include; admins get it`, async (t) => {
    const guest = await get('/api/v1/employees/1?include=notes');
    t.is(guest.included, undefined);
    t.false('notes' in (guest.data as Resource).relationships);
    const admin = await get('/api/v1/employees/1?include=notes', ADMIN);
    t.true(admin.included!.every((n) => n.type === 'notes'));
    t.true(admin.included!.length > 0);
  });

  test(`${db.name}: a note about a type notable does not lead to is a 422, and nothing is written`, async (t) => {
    const admin = ADMIN;
    const before = await dir.models.Note.count();
    for (const notableType of ['bogus', '__proto__']) {
      const created = await client.request('POST', '/api/v1/notes', { data: { type: 'notes', attributes: { body: 'x', notable_type: notableType, notable_id: 1 } } }, admin);
      t.is(created.status, 422, notableType);
      const errors = (created.body as Doc).errors!;
      t.deepEqual(errors.map((e) => e.source), [{ pointer: '/data/attributes/notable_type' }]);
      t.regex(errors[0]!.detail, /must be one of employees, teams, departments/);
    }
    const note = await dir.models.Note.findOne({ order: [['id', 'ASC']] });
    const updated = await client.request('PATCH', `/api/v1/notes/${note!.id}`, { data: { type: 'notes', id: String(note!.id), attributes: { notable_type: 'bogus' } } }, admin);
    t.is(updated.status, 422);
    t.is((await dir.models.Note.findByPk(note!.id))!.notable_type, note!.notable_type);
    t.is(await dir.models.Note.count(), before);
  });

  test(`${db.name}: include errors are 400s naming the include parameter`, async (t) => {
    for (const path of ['/api/v1/employees?include=bosses', '/api/v1/employees?include=a.b.c.d.e.f', '/api/v1/tasks?include=positions']) {
      const response = await client.get(path);
      t.is(response.status, 400, path);
      t.deepEqual((response.body as Doc).errors![0]!.source, { parameter: 'include' });
    }
  });

  test(`${db.name}: deep query parameters over HTTP`, async (t) => {
    const doc = await get('/api/v1/employees?include=positions&filter[positions][active]=true&page[positions][size]=1&stats[positions][total]=count&page[size]=5');
    t.is((doc.data as Resource[]).length, 5);
    t.true(doc.included!.every((p) => p.attributes.active === true));
    t.is(typeof ((doc.meta.stats as Record<string, Record<string, Record<string, number>>>).positions!.total!.count), 'number');
  });
}
