import test, { type ExecutionContext } from 'ava';
import { Forbidden, withContext } from '../../../core/index.ts';
import { testDatabases } from '../../support/databases.ts';
import { directoryServer } from '../../support/directory-server.ts';
import { tableCounts, type Directory } from '../../support/directory.ts';
import { ADMIN } from '../../support/example-auth.ts';

/**
 * What the example guards — `employees.salary`, the `employees.notes`
 * relationship and the notes Resource itself, all admin-only (the admin's bearer token)
 * — through every route and parameter a client could try. For a guest,
 * nothing guarded may appear anywhere in the raw response text (no seeded
 * salary, no note body, no notes resource object, relationship or link), and
 * the status is the documented one; for an admin the same request works.
 */

type Json = Record<string, unknown>;
type Doc = { data?: Json | Json[] | null; included?: Json[]; meta?: Json; errors?: Array<{ code: string; status: string; source?: Json; meta?: Json }> };

interface Case {
  /** What the row tries, as a sentence. */
  what: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  /** The status a guest gets. */
  guest: number;
  /** The guest's error code, when the status is an error. */
  guestCode?: string;
  admin: number;
  /** What an admin must see: proves the guard is what made the difference. */
  adminSees?: (t: ExecutionContext, doc: Doc) => unknown;
}

const A_NOTE_BODY = 'Joined the mentoring programme.'; // the seeded body of note 1, on employee 1

const records = (doc: Doc): Json[] => [doc.data ?? []].flat() as Json[];
const attributesOf = (doc: Doc) => records(doc).map((r) => r.attributes as Json);
const includedTypes = (doc: Doc) => (doc.included ?? []).map((r) => r.type);
const newEmployee = (attributes: Json, relationships?: Json) => ({ data: { type: 'employees', attributes: { first_name: 'Mary', last_name: 'Jackson', ...attributes }, ...(relationships ? { relationships } : {}) } });
const sidepostNote = { notes: { data: [{ type: 'notes', 'temp-id': 'n1', method: 'create' }] } };
const withNote = (doc: { data: Json }) => ({ ...doc, included: [{ type: 'notes', 'temp-id': 'n1', attributes: { body: 'Hired as a computer' } }] });

const cases: Case[] = [
  // salary: sparse fields, sorts, filters, stats, directly and through includes
  { what: 'fields[employees]=salary on the index', method: 'GET', path: '/api/v1/employees?fields[employees]=salary', guest: 200, admin: 200,
    adminSees: (t, doc) => t.true(attributesOf(doc).every((a) => typeof a.salary === 'string')) },
  { what: 'fields[employees]=salary on show', method: 'GET', path: '/api/v1/employees/2?fields[employees]=first_name,salary', guest: 200, admin: 200,
    adminSees: (t, doc) => t.is(typeof attributesOf(doc)[0]!.salary, 'string') },
  { what: 'every attribute, no fieldset', method: 'GET', path: '/api/v1/employees?page[size]=50', guest: 200, admin: 200,
    adminSees: (t, doc) => t.true(attributesOf(doc).some((a) => 'salary' in a)) },
  { what: 'sort=salary', method: 'GET', path: '/api/v1/employees?sort=salary', guest: 400, guestCode: 'unknown_sort', admin: 200, adminSees: sortedBySalary },
  { what: 'sort=-salary', method: 'GET', path: '/api/v1/employees?sort=-salary', guest: 400, guestCode: 'unknown_sort', admin: 200 },
  { what: 'filter[salary][gt]', method: 'GET', path: '/api/v1/employees?filter[salary][gt]=100000', guest: 400, guestCode: 'unknown_filter', admin: 200,
    adminSees: (t, doc) => t.true(attributesOf(doc).every((a) => Number(a.salary) > 100000)) },
  { what: 'filter[salary][not_eq]', method: 'GET', path: '/api/v1/employees?filter[salary][not_eq]=1', guest: 400, guestCode: 'unknown_filter', admin: 200 },
  { what: 'stats[salary] (no salary stat is declared)', method: 'GET', path: '/api/v1/employees?stats[salary]=sum', guest: 400, guestCode: 'unknown_stat', admin: 400 },
  { what: 'salary of included employees', method: 'GET', path: '/api/v1/teams?include=employees&fields[employees]=first_name,salary', guest: 200, admin: 200,
    adminSees: (t, doc) => t.true((doc.included ?? []).every((e) => typeof (e.attributes as Json).salary === 'string')) },
  { what: 'a deep filter on salary', method: 'GET', path: '/api/v1/positions?include=employee&filter[employee.salary][gt]=0', guest: 400, guestCode: 'unknown_filter', admin: 200 },
  { what: 'a deep sort on salary', method: 'GET', path: '/api/v1/teams?include=employees&sort=-employees.salary', guest: 400, guestCode: 'unknown_sort', admin: 200 },
  { what: 'stats on included employees', method: 'GET', path: '/api/v1/teams?include=employees&stats[employees][salary]=sum', guest: 400, admin: 400 },

  // the notes relationship: include, deep parameters, links, from every Resource that reaches employees
  { what: 'include=notes on the index', method: 'GET', path: '/api/v1/employees?include=notes', guest: 200, admin: 200, adminSees: includesNotes },
  { what: 'include=notes on show', method: 'GET', path: '/api/v1/employees/1?include=notes', guest: 200, admin: 200, adminSees: includesNotes },
  { what: 'include=notes.notable', method: 'GET', path: '/api/v1/employees/1?include=notes.notable', guest: 200, admin: 200, adminSees: includesNotes },
  { what: 'a deep filter on notes.body', method: 'GET', path: `/api/v1/employees?include=notes&filter[notes.body]=${encodeURIComponent(A_NOTE_BODY)}`, guest: 200, admin: 200, adminSees: includesNotes },
  { what: 'a typed deep filter filter[notes][body]', method: 'GET', path: `/api/v1/employees?include=notes&filter[notes][body][prefix]=Joined`, guest: 200, admin: 200, adminSees: includesNotes },
  { what: 'a deep sort on notes.body', method: 'GET', path: '/api/v1/employees?include=notes&sort=-notes.body', guest: 200, admin: 200, adminSees: includesNotes },
  { what: 'fields[notes]', method: 'GET', path: '/api/v1/employees?include=notes&fields[notes]=body', guest: 200, admin: 200, adminSees: includesNotes },
  { what: 'stats[notes]', method: 'GET', path: '/api/v1/employees?include=notes&stats[notes][total]=count', guest: 200, admin: 200,
    adminSees: (t, doc) => t.truthy((doc.meta?.stats as Json | undefined)?.notes) },
  { what: 'page[notes][size]', method: 'GET', path: '/api/v1/employees?include=notes&page[notes][size]=1', guest: 200, admin: 200, adminSees: includesNotes },
  { what: 'deep parameters for notes without the include', method: 'GET', path: '/api/v1/employees?filter[notes.body]=x&sort=notes.body&stats[notes][total]=count&fields[notes]=body', guest: 200, admin: 200 },
  { what: 'notes through positions → employee', method: 'GET', path: '/api/v1/positions?include=employee.notes', guest: 200, admin: 200, adminSees: includesNotes },
  { what: 'notes through teams → employees', method: 'GET', path: '/api/v1/teams?include=employees.notes', guest: 200, admin: 200, adminSees: includesNotes },
  { what: 'notes through departments → teams → employees', method: 'GET', path: '/api/v1/departments/1?include=teams.employees.notes', guest: 200, admin: 200, adminSees: includesNotes },
  { what: 'notes through tasks → employee', method: 'GET', path: '/api/v1/tasks?include=employee.notes', guest: 200, admin: 200, adminSees: includesNotes },
  { what: 'teams have no notes relationship', method: 'GET', path: '/api/v1/teams?include=notes', guest: 400, guestCode: 'unknown_include', admin: 400 },
  { what: 'departments have no notes relationship', method: 'GET', path: '/api/v1/departments?include=notes', guest: 400, guestCode: 'unknown_include', admin: 400 },

  // the notes Resource's own endpoint: every action, existing and missing records alike
  { what: 'GET /notes', method: 'GET', path: '/api/v1/notes', guest: 403, guestCode: 'forbidden', admin: 200, adminSees: (t, doc) => t.true(records(doc).length > 0) },
  { what: 'GET /notes with a filter', method: 'GET', path: `/api/v1/notes?filter[body][prefix]=Joined&stats[total]=count`, guest: 403, guestCode: 'forbidden', admin: 200 },
  { what: 'GET /notes/1', method: 'GET', path: '/api/v1/notes/1?include=notable', guest: 403, guestCode: 'forbidden', admin: 200 },
  { what: 'GET a note that does not exist', method: 'GET', path: '/api/v1/notes/99999', guest: 403, guestCode: 'forbidden', admin: 404 },
  { what: 'POST /notes', method: 'POST', path: '/api/v1/notes', body: { data: { type: 'notes', attributes: { body: 'Hired' }, relationships: { notable: { data: { type: 'employees', id: '1' } } } } },
    guest: 403, guestCode: 'forbidden', admin: 201 },
  { what: 'PATCH /notes/2', method: 'PATCH', path: '/api/v1/notes/2', body: { data: { type: 'notes', id: '2', attributes: { body: 'Edited' } } }, guest: 403, guestCode: 'forbidden', admin: 200 },
  { what: 'PATCH a note that does not exist', method: 'PATCH', path: '/api/v1/notes/99999', body: { data: { type: 'notes', id: '99999', attributes: { body: 'Edited' } } }, guest: 403, guestCode: 'forbidden', admin: 404 },
  { what: 'DELETE /notes/3', method: 'DELETE', path: '/api/v1/notes/3', guest: 403, guestCode: 'forbidden', admin: 200 },
  { what: 'DELETE a note that does not exist', method: 'DELETE', path: '/api/v1/notes/99999', guest: 403, guestCode: 'forbidden', admin: 404 },

  // writes: salary, sideposted notes (to a guest, notes is a relationship that does not exist), write responses
  { what: 'POST an employee with a salary', method: 'POST', path: '/api/v1/employees', body: newEmployee({ salary: '91234.5' }), guest: 422, guestCode: 'unprocessable_entity', admin: 201,
    adminSees: (t, doc) => t.is(attributesOf(doc)[0]!.salary, '91234.5') },
  { what: 'PATCH a salary', method: 'PATCH', path: '/api/v1/employees/4', body: { data: { type: 'employees', id: '4', attributes: { salary: '61234.5' } } }, guest: 422, admin: 200 },
  { what: 'PATCH a salary of an employee that does not exist', method: 'PATCH', path: '/api/v1/employees/99999', body: { data: { type: 'employees', id: '99999', attributes: { salary: '61234.5' } } }, guest: 422, admin: 404 },
  { what: 'PATCH without salary: the response leaves it out', method: 'PATCH', path: '/api/v1/employees/5?include=notes', body: { data: { type: 'employees', id: '5', attributes: { age: 40 } } }, guest: 200, admin: 200,
    adminSees: (t, doc) => t.true('salary' in attributesOf(doc)[0]!) },
  { what: 'POST an employee sideposting a note', method: 'POST', path: '/api/v1/employees', body: withNote(newEmployee({}, sidepostNote)), guest: 400, guestCode: 'unknown_relationship', admin: 201,
    adminSees: (t, doc) => t.deepEqual(includedTypes(doc), ['notes']) },
  { what: 'PATCH linking an existing note', method: 'PATCH', path: '/api/v1/employees/6', body: { data: { type: 'employees', id: '6', relationships: { notes: { data: [{ type: 'notes', id: '1' }] } } } }, guest: 400, guestCode: 'unknown_relationship', admin: 200 },
  { what: 'PATCH linking a note that does not exist', method: 'PATCH', path: '/api/v1/employees/6', body: { data: { type: 'employees', id: '6', relationships: { notes: { data: [{ type: 'notes', id: '99999' }] } } } }, guest: 400, guestCode: 'unknown_relationship', admin: 404 },
  { what: 'PATCH destroying a note through the relationship', method: 'PATCH', path: '/api/v1/employees/7', body: { data: { type: 'employees', id: '7', relationships: { notes: { data: [{ type: 'notes', id: '4', method: 'destroy' }] } } } }, guest: 400, guestCode: 'unknown_relationship', admin: 200 },
  { what: 'a salary sideposted from a position', method: 'POST', path: '/api/v1/positions', body: {
    data: { type: 'positions', attributes: { title: 'Analyst' }, relationships: { employee: { data: { type: 'employees', 'temp-id': 'e1', method: 'create' } } } },
    included: [{ type: 'employees', 'temp-id': 'e1', attributes: { first_name: 'Dorothy', last_name: 'Vaughan', salary: '77777.7' } }] }, guest: 422, admin: 201 },
  { what: 'a note sideposted two levels down', method: 'POST', path: '/api/v1/positions', body: {
    data: { type: 'positions', attributes: { title: 'Analyst' }, relationships: { employee: { data: { type: 'employees', 'temp-id': 'e1', method: 'create' } } } },
    included: [{ type: 'employees', 'temp-id': 'e1', attributes: { first_name: 'Dorothy', last_name: 'Vaughan' }, relationships: sidepostNote }, { type: 'notes', 'temp-id': 'n1', attributes: { body: 'Hired as a computer' } }] },
    guest: 400, guestCode: 'unknown_relationship', admin: 201, adminSees: (t, doc) => t.deepEqual(includedTypes(doc), ['employees', 'notes']) },

  // relationship endpoints: employees.notes hides as include hides it; the notes Resource guards its records' own
  { what: 'GET the notes related endpoint', method: 'GET', path: '/api/v1/employees/1/notes', guest: 404, guestCode: 'not_found', admin: 200,
    adminSees: (t, doc) => t.true(records(doc).length > 0 && records(doc).every((r) => r.type === 'notes')) },
  { what: 'GET the notes relationship endpoint', method: 'GET', path: '/api/v1/employees/1/relationships/notes', guest: 404, guestCode: 'not_found', admin: 200 },
  { what: 'GET notes of an employee that does not exist', method: 'GET', path: '/api/v1/employees/99999/notes', guest: 404, guestCode: 'not_found', admin: 404 },
  { what: 'include=notes on a related endpoint', method: 'GET', path: '/api/v1/positions/1/employee?include=notes', guest: 200, admin: 200, adminSees: includesNotes },
  { what: "GET a note's notable", method: 'GET', path: '/api/v1/notes/1/notable', guest: 403, guestCode: 'forbidden', admin: 200 },
  { what: "GET the notable linkage of a note that does not exist", method: 'GET', path: '/api/v1/notes/99999/relationships/notable', guest: 403, guestCode: 'forbidden', admin: 404 },
  { what: "POST a note into an employee's notes", method: 'POST', path: '/api/v1/employees/6/relationships/notes', body: { data: [{ type: 'notes', id: '5' }] },
    guest: 404, guestCode: 'not_found', admin: 204 },
  { what: "PATCH a note's notable", method: 'PATCH', path: '/api/v1/notes/6/relationships/notable', body: { data: { type: 'teams', id: '1' } }, guest: 403, guestCode: 'forbidden', admin: 204 },
];

async function sortedBySalary(t: ExecutionContext, doc: Doc): Promise<void> {
  const salaries = attributesOf(doc).map((a) => (a.salary === null ? null : Number(a.salary)));
  const known = salaries.filter((s): s is number => s !== null);
  t.deepEqual(known, [...known].sort((a, b) => a - b));
}

function includesNotes(t: ExecutionContext, doc: Doc): void {
  t.true(includedTypes(doc).includes('notes'), 'an admin gets the notes');
}

/** Everything guarded the database holds now, as it could appear in a response. */
async function secrets(dir: Directory): Promise<{ salaries: string[]; bodies: string[] }> {
  const employees = await dir.models.Employee.findAll({ attributes: ['salary'], raw: true });
  // every salary here has five digits or more before the point, too many to turn up by chance
  const salaries = employees.map((e) => e.salary).filter((s) => s !== null).map((s) => String(s).split('.')[0]!).filter((s) => s.length >= 5);
  const notes = await dir.models.Note.findAll({ attributes: ['body'], raw: true });
  return { salaries: [...new Set(salaries)], bodies: [...new Set(notes.map((n) => n.body))] };
}

/** Asserts a guest response carries nothing guarded; values the request itself sent are the caller's own. */
function assertNothingGuarded(t: ExecutionContext, text: string, sent: string, found: { salaries: string[]; bodies: string[] }): void {
  for (const salary of found.salaries) {
    if (sent.includes(salary)) continue;
    t.false(new RegExp(`(?<!\\d)${salary}(?!\\d)`).test(text), `a salary (${salary}) leaked`);
  }
  for (const body of found.bodies) if (!sent.includes(body)) t.false(text.includes(body), `a note body leaked: ${body}`);
  const doc = JSON.parse(text || '{}') as Doc;
  const objects = [...records(doc), ...(doc.included ?? [])];
  t.false(objects.some((o) => o.type === 'notes'), 'a notes resource object');
  t.false(objects.some((o) => 'notes' in ((o.relationships as Json | undefined) ?? {})), 'a notes relationship');
  t.false(/\/api\/v1\/notes\b/.test(text), 'a link to the notes endpoint');
  t.false(objects.some((o) => 'salary' in ((o.attributes as Json | undefined) ?? {})), 'a salary attribute');
  t.false('notes' in ((doc.meta?.stats as Json | undefined) ?? {}), 'stats of notes');
}

for (const db of testDatabases('guards_matrix')) {
  const { dir, client } = directoryServer(db, 'guards_matrix', 30);

  for (const row of cases) {
    test.serial(`${db.name}: ${row.what} — guest ${row.guest}, admin ${row.admin}`, async (t) => {
      const found = await secrets(dir);
      const before = await tableCounts(dir.models);
      const sent = row.path + JSON.stringify(row.body ?? '');
      const guest = await client.request(row.method, row.path, row.body);
      t.is(guest.status, row.guest, guest.text.slice(0, 300));
      if (row.guestCode) t.is((guest.body as Doc).errors?.[0]?.code, row.guestCode);
      assertNothingGuarded(t, guest.text, decodeURIComponent(sent), found);
      if (row.method !== 'GET' && row.guest >= 400) t.deepEqual(await tableCounts(dir.models), before, 'a refused write changes nothing');

      const admin = await client.request(row.method, row.path, row.body, ADMIN);
      t.is(admin.status, row.admin, admin.text.slice(0, 300));
      await row.adminSees?.(t, admin.body as Doc);
    });
  }

  test.serial(`${db.name}: a refused guard reads the same whether or not the note exists`, async (t) => {
    const existing = await client.get('/api/v1/notes/1');
    const missing = await client.get('/api/v1/notes/99999');
    t.deepEqual(existing.body, missing.body);
    t.deepEqual((existing.body as Doc).errors, [{ status: '403', code: 'forbidden', title: 'Forbidden', detail: 'You may not show notes' }]);
  });

  test.serial(`${db.name}: in-process, the notes Resource refuses every action without the admin context`, async (t) => {
    const { NoteResource, EmployeeResource } = dir.resources;
    const before = await tableCounts(dir.models);
    await t.throwsAsync(NoteResource.all({}).toJsonapi(), { instanceOf: Forbidden });
    await t.throwsAsync(NoteResource.all({}).data, { instanceOf: Forbidden });
    await t.throwsAsync(NoteResource.find({ id: 1 }).data, { instanceOf: Forbidden });
    await t.throwsAsync(NoteResource.build({ data: { type: 'notes', attributes: { body: 'x' } } }).save(), { instanceOf: Forbidden });
    await t.throwsAsync(NoteResource.find({ id: 1 }).update({ data: { type: 'notes', id: '1', attributes: { body: 'x' } } }), { instanceOf: Forbidden });
    await t.throwsAsync(NoteResource.find({ id: 1 }).destroy(), { instanceOf: Forbidden });
    t.deepEqual(await tableCounts(dir.models), before);

    const guest = JSON.stringify(await EmployeeResource.all({ include: 'notes', fields: { employees: 'first_name,salary' } }).toJsonapi());
    assertNothingGuarded(t, guest, '', await secrets(dir));

    const admin = await withContext({ role: 'admin' }, async () => ({
      notes: await NoteResource.all({ page: { size: 5 } }).data,
      doc: await EmployeeResource.find({ id: 1, include: 'notes' }).toJsonapi(),
    }));
    t.is((admin.notes as unknown[]).length, 5);
    t.true(admin.doc.included!.every((n) => n.type === 'notes'));
  });
}
