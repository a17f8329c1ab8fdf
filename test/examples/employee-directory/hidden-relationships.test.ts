import test, { type ExecutionContext } from 'ava';
import { testDatabases } from '../../support/databases.ts';
import { directoryServer } from '../../support/directory-server.ts';
import { tableCounts } from '../../support/directory.ts';
import type { HttpClient, HttpResponse } from '../../support/http.ts';
import { ADMIN } from '../../support/example-auth.ts';

/**
 * `employees.notes` is readable and writable only by an admin. To a guest it
 * must not exist: every route that names it (the related and relationship
 * endpoints with every method, sideposting, atomic operations) answers it
 * byte for byte as it answers `notez`, a name no Resource declares, with the
 * name the only difference. An admin gets a different answer, which proves
 * the guard made the difference; and the unknown name answers an admin as it
 * answers a guest, which proves the comparison is not between two refusals.
 */

const ATOMIC = { 'content-type': 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"' };
/** As long as `notes`, so not even a length differs. */
const UNKNOWN = 'notez';

type Json = Record<string, unknown>;

interface Row {
  what: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The request, for a relationship name. */
  path: (name: string) => string;
  body?: (name: string) => unknown;
  headers?: Record<string, string>;
  /** The guest's status for both names. */
  status: number;
  /**
   * An admin's status for `notes`; left out where disassociating a note is
   * refused for reasons of its own (its notable is required), and it is
   * enough that the admin's answer is not the guest's.
   */
  admin?: number;
}

const noteLinkage = { data: [{ type: 'notes', id: '5' }] };
const operations = (...list: Json[]) => ({ 'atomic:operations': list });
const employee = (relationships: Json) => ({ type: 'employees', attributes: { first_name: 'Mary', last_name: 'Jackson' }, relationships });
const sidepostedNote = (name: string) => ({ [name]: { data: [{ type: 'notes', 'temp-id': 'n1', method: 'create' }] } });
const includedNote = [{ type: 'notes', 'temp-id': 'n1', attributes: { body: 'Hired as a computer' } }];

const rows: Row[] = [
  { what: 'GET the related endpoint', method: 'GET', path: (n) => `/api/v1/employees/1/${n}`, status: 404, admin: 200 },
  { what: 'GET the related endpoint with parameters of the related Resource', method: 'GET',
    path: (n) => `/api/v1/employees/1/${n}?filter[body][prefix]=J&sort=-body&fields[notes]=body&include=notable&page[size]=1`, status: 404, admin: 200 },
  { what: 'GET the related endpoint with parameters no Resource takes', method: 'GET', path: (n) => `/api/v1/employees/1/${n}?filter[nope]=1&sort=nope`, status: 404, admin: 400 },
  { what: 'GET the relationship endpoint', method: 'GET', path: (n) => `/api/v1/employees/1/relationships/${n}`, status: 404, admin: 200 },
  { what: 'GET the relationship endpoint of a missing employee', method: 'GET', path: (n) => `/api/v1/employees/99999/relationships/${n}`, status: 404, admin: 404 },
  { what: 'POST members', method: 'POST', path: (n) => `/api/v1/employees/6/relationships/${n}`, body: () => noteLinkage, status: 404, admin: 204 },
  { what: 'PATCH the members', method: 'PATCH', path: (n) => `/api/v1/employees/7/relationships/${n}`, body: () => noteLinkage, status: 404 },
  { what: 'DELETE members', method: 'DELETE', path: (n) => `/api/v1/employees/1/relationships/${n}`, body: () => ({ data: [{ type: 'notes', id: '1' }] }), status: 404 },
  { what: 'PATCH with linkage of the wrong shape', method: 'PATCH', path: (n) => `/api/v1/employees/1/relationships/${n}`, body: () => ({ data: { type: 'notes', id: '1' } }), status: 404, admin: 400 },
  { what: 'POST with no data member', method: 'POST', path: (n) => `/api/v1/employees/1/relationships/${n}`, body: () => ({}), status: 404, admin: 400 },
  { what: 'POST to a missing employee', method: 'POST', path: (n) => `/api/v1/employees/99999/relationships/${n}`, body: () => noteLinkage, status: 404, admin: 404 },
  { what: 'POST an employee sideposting a note', method: 'POST', path: () => '/api/v1/employees',
    body: (n) => ({ data: employee(sidepostedNote(n)), included: includedNote }), status: 400, admin: 201 },
  { what: 'PATCH an employee linking a note', method: 'PATCH', path: () => '/api/v1/employees/6',
    body: (n) => ({ data: { type: 'employees', id: '6', relationships: { [n]: noteLinkage } } }), status: 400, admin: 200 },
  { what: 'PATCH an employee with malformed notes', method: 'PATCH', path: () => '/api/v1/employees/6',
    body: (n) => ({ data: { type: 'employees', id: '6', relationships: { [n]: { data: 'x' } } } }), status: 400, admin: 400 },
  { what: 'a note sideposted two levels down', method: 'POST', path: () => '/api/v1/positions', body: (n) => ({
    data: { type: 'positions', attributes: { title: 'Analyst' }, relationships: { employee: { data: { type: 'employees', 'temp-id': 'e1', method: 'create' } } } },
    included: [{ ...employee(sidepostedNote(n)), 'temp-id': 'e1' }, ...includedNote] }), status: 400, admin: 201 },
  { what: 'an atomic add to the relationship', method: 'POST', path: () => '/api/v1/operations', headers: ATOMIC,
    body: (n) => operations({ op: 'add', ref: { type: 'employees', id: '6', relationship: n }, data: noteLinkage.data }), status: 404, admin: 200 },
  { what: 'an atomic update of the relationship after another operation', method: 'POST', path: () => '/api/v1/operations', headers: ATOMIC,
    body: (n) => operations(
      { op: 'add', data: { type: 'employees', lid: 'e', attributes: { first_name: 'Ada', last_name: 'L' } } },
      { op: 'update', ref: { type: 'employees', lid: 'e', relationship: n }, data: noteLinkage.data },
    ), status: 404, admin: 200 },
  { what: 'an atomic remove from the relationship', method: 'POST', path: () => '/api/v1/operations', headers: ATOMIC,
    body: (n) => operations({ op: 'remove', ref: { type: 'employees', id: '1', relationship: n }, data: [{ type: 'notes', id: '1' }] }), status: 404 },
  { what: 'an atomic add of an employee with notes', method: 'POST', path: () => '/api/v1/operations', headers: ATOMIC,
    body: (n) => operations({ op: 'add', data: employee({ [n]: noteLinkage }) }), status: 400, admin: 200 },
  { what: 'an atomic update of an employee with notes', method: 'POST', path: () => '/api/v1/operations', headers: ATOMIC,
    body: (n) => operations({ op: 'update', data: { type: 'employees', id: '6', relationships: { [n]: noteLinkage } } }), status: 400, admin: 200 },
];

/** The answer as a client sees it, the relationship's name written as `{name}`. */
function answer(response: HttpResponse, name: string): string {
  return `${response.status} ${response.text.replaceAll(name, '{name}')}`;
}

async function send(client: HttpClient, row: Row, name: string, headers: Record<string, string> = {}): Promise<HttpResponse> {
  return client.request(row.method, row.path(name), row.body?.(name), { ...row.headers, ...headers });
}

async function compare(t: ExecutionContext, client: HttpClient, row: Row): Promise<void> {
  const hidden = await send(client, row, 'notes');
  const unknown = await send(client, row, UNKNOWN);
  t.is(hidden.status, row.status, hidden.text.slice(0, 300));
  t.is(answer(hidden, 'notes'), answer(unknown, UNKNOWN));
  t.is(hidden.headers.get('content-type'), unknown.headers.get('content-type'));
  const errors = (hidden.body as { errors?: Json[] }).errors ?? [];
  t.true(errors.length > 0 && JSON.stringify(errors).includes('notes'), 'the error names the relationship, as for any unknown name');
}

for (const db of testDatabases('hidden_rels')) {
  const { dir, client } = directoryServer(db, 'hidden_rels', 12);

  for (const row of rows) {
    test.serial(`${db.name}: ${row.what} — a guest gets the answer of an unknown relationship`, async (t) => {
      const before = await tableCounts(dir.models);
      await compare(t, client, row);
      t.deepEqual(await tableCounts(dir.models), before, 'nothing was written');
      t.is(answer(await send(client, row, UNKNOWN, ADMIN), UNKNOWN), answer(await send(client, row, UNKNOWN), UNKNOWN), 'an unknown name answers every role alike');
      const admin = await send(client, row, 'notes', ADMIN);
      if (row.admin === undefined) t.not(answer(admin, 'notes'), answer(await send(client, row, UNKNOWN, ADMIN), UNKNOWN));
      else t.is(admin.status, row.admin, admin.text.slice(0, 300));
    });
  }

  test.serial(`${db.name}: an unknown include or field neither lists nor suggests to a guest what it may not read`, async (t) => {
    for (const path of ['/api/v1/positions?include=employee.notez', '/api/v1/employees?include=notez', '/api/v1/employees?fields[employees]=salar', '/api/v1/employees?fields[employees]=notez']) {
      const guest = await client.get(path);
      t.is(guest.status, 400, path);
      t.false(/notes|salary/.test(guest.text), `${path}: ${guest.text}`);
      const admin = await client.get(path, ADMIN);
      t.is(admin.status, 400, path);
      t.regex(admin.text, /did you mean \\"(notes|salary)\\"/, 'an admin, who may read them, is offered them');
    }
  });
}
