import test from 'ava';
import { testDatabases } from '../../support/databases.ts';
import { directoryServer } from '../../support/directory-server.ts';
import type { HttpResponse } from '../../support/http.ts';
import { ADMIN } from '../../support/example-auth.ts';

const ATOMIC = { 'content-type': 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"', ...ADMIN };
type Doc = { data: { id: string } };

/**
 * Issue 34, finding 2: an employee's version (`lock_version`, what its ETag
 * and `If-Match` compare) moves with every change to what its document
 * shows, its relationships included, whichever side the change is made
 * from: a team's members, a position's employee, a note's notable, a team
 * destroyed. A client holding the old ETag is then refused (412) rather
 * than silently undoing the other change; a record whose document did not
 * change keeps its ETag.
 */
for (const db of testDatabases('relationship_versions')) {
  const { dir, client } = directoryServer(db, 'relationship_versions', 12);

  const versionTag = (response: HttpResponse) => response.headers.get('etag')!.replace(/^"([^.]*).*"$/, '$1');
  const versionOf = async (employee: number) => {
    const response = await client.get(`/api/v1/employees/${employee}`);
    if (response.status !== 200) throw new Error(`GET employees/${employee}: ${response.status}`);
    return versionTag(response);
  };
  const versionsOf = async (...employees: number[]) => Promise.all(employees.map(versionOf));
  const ok = (t: import('ava').ExecutionContext, response: HttpResponse) => t.true(response.status < 300, `${response.status} ${response.text.slice(0, 300)}`);
  const membersOf = async (team: number) => (await dir.models.EmployeeTeam.findAll({ where: { team_id: team }, raw: true })).map((row) => row.employee_id);
  const nonMember = async (team: number) => {
    const members = await membersOf(team);
    return Array.from({ length: 12 }, (_, i) => i + 1).find((id) => !members.includes(id))!;
  };

  test.serial(`${db.name}: a member added or removed through the team moves the employee's version; the old ETag is then a 412`, async (t) => {
    const employee = await nonMember(1);
    const bystander = (await membersOf(1))[0]!;
    const [before, bystanderBefore] = await versionsOf(employee, bystander);
    ok(t, await client.request('POST', '/api/v1/teams/1/relationships/employees', { data: [{ type: 'employees', id: String(employee) }] }));
    const added = await versionOf(employee);
    t.not(added, before);
    t.is(await versionOf(bystander), bystanderBefore, 'a member whose own teams did not change keeps its version');
    const stale = await client.request('PATCH', `/api/v1/employees/${employee}/relationships/teams`, { data: [] }, { 'If-Match': `"${before}"` });
    t.is(stale.status, 412, 'the change made from the other side is not silently undone');
    t.true((await membersOf(1)).includes(employee));
    ok(t, await client.request('DELETE', '/api/v1/teams/1/relationships/employees', { data: [{ type: 'employees', id: String(employee) }] }));
    t.not(await versionOf(employee), added);
  });

  test.serial(`${db.name}: adding a member that is already there changes nobody's version`, async (t) => {
    const member = (await membersOf(2))[0]!;
    const before = await versionOf(member);
    ok(t, await client.request('POST', '/api/v1/teams/2/relationships/employees', { data: [{ type: 'employees', id: String(member) }] }));
    t.is(await versionOf(member), before);
  });

  test.serial(`${db.name}: a position moved, created or destroyed moves the versions of the employees it leaves and joins`, async (t) => {
    const position = await dir.models.Position.findOne({ where: { employee_id: 3 } });
    const [three, four] = await versionsOf(3, 4);
    ok(t, await client.request('PATCH', `/api/v1/positions/${position!.id}/relationships/employee`, { data: { type: 'employees', id: '4' } }));
    const [threeMoved, fourMoved] = await versionsOf(3, 4);
    t.not(threeMoved, three, 'the employee it left');
    t.not(fourMoved, four, 'the employee it joined');
    const patch = { data: { type: 'positions', id: String(position!.id), relationships: { employee: { data: { type: 'employees', id: '3' } } } } };
    ok(t, await client.request('PATCH', `/api/v1/positions/${position!.id}`, patch));
    const [threeBack, fourBack] = await versionsOf(3, 4);
    t.true(threeBack !== threeMoved && fourBack !== fourMoved, 'through the position\'s own endpoint too');
    const created = await client.request('POST', '/api/v1/positions', {
      data: { type: 'positions', attributes: { title: 'Versioned' }, relationships: { employee: { data: { type: 'employees', id: '5' } } } },
    });
    ok(t, created);
    const five = await versionOf(5);
    ok(t, await client.request('DELETE', `/api/v1/positions/${(created.body as Doc).data.id}`));
    t.not(await versionOf(5), five, 'a destroyed position leaves its employee with a new version');
  });

  test.serial(`${db.name}: a note written about an employee, from the note's side, moves the employee's version`, async (t) => {
    const before = await versionOf(6);
    const note = await client.request('POST', '/api/v1/notes', {
      data: { type: 'notes', attributes: { body: 'Versioned note' }, relationships: { notable: { data: { type: 'employees', id: '6' } } } },
    }, ADMIN);
    ok(t, note);
    const noted = await versionOf(6);
    t.not(noted, before);
    ok(t, await client.request('PATCH', `/api/v1/notes/${(note.body as Doc).data.id}/relationships/notable`, { data: { type: 'teams', id: '1' } }, ADMIN));
    t.not(await versionOf(6), noted, 'moving the note to a team takes it out of the employee\'s notes');
  });

  test.serial(`${db.name}: atomic operations from the team's side move the employee's version`, async (t) => {
    const employee = await nonMember(3);
    const before = await versionOf(employee);
    const operations = [{ op: 'add', ref: { type: 'teams', id: '3', relationship: 'employees' }, data: [{ type: 'employees', id: String(employee) }] }];
    ok(t, await client.request('POST', '/api/v1/operations', { 'atomic:operations': operations }, ATOMIC));
    t.not(await versionOf(employee), before);
  });

  test.serial(`${db.name}: a team cleared or destroyed moves the version of every employee it had`, async (t) => {
    const cleared = await membersOf(4);
    t.true(cleared.length > 0);
    const clearedBefore = await versionsOf(...cleared);
    ok(t, await client.request('PATCH', '/api/v1/teams/4/relationships/employees', { data: [] }));
    const clearedAfter = await versionsOf(...cleared);
    t.true(clearedAfter.every((version, i) => version !== clearedBefore[i]));
    const destroyed = await membersOf(5);
    t.true(destroyed.length > 0);
    const destroyedBefore = await versionsOf(...destroyed);
    ok(t, await client.request('DELETE', '/api/v1/teams/5'));
    const destroyedAfter = await versionsOf(...destroyed);
    t.true(destroyedAfter.every((version, i) => version !== destroyedBefore[i]));
  });

  test.serial(`${db.name}: a write's own ETag is the version a read then shows, when its sideposted records move it`, async (t) => {
    const before = await versionOf(7);
    const written = await client.request('PATCH', '/api/v1/employees/7', {
      data: { type: 'employees', id: '7', relationships: { positions: { data: [{ type: 'positions', 'temp-id': 'p1', method: 'create' }] } } },
      included: [{ type: 'positions', 'temp-id': 'p1', attributes: { title: 'Sideposted' } }],
    });
    ok(t, written);
    t.not(versionTag(written), before, 'a new position is a change to the employee\'s document');
    t.is(versionTag(written), await versionOf(7));
    const stale = await client.request('PATCH', '/api/v1/employees/7', { data: { type: 'employees', id: '7', attributes: { age: 51 } } }, {
      'If-Match': written.headers.get('etag')!,
    });
    t.is(stale.status, 200, 'the ETag the write answered is current');
  });

  test.serial(`${db.name}: finding 4: a team of 1,100 members is cleared by one PATCH, and a destroyed team leaves no join rows`, async (t) => {
    const crowd = await dir.models.Employee.bulkCreate(Array.from({ length: 1_100 }, (_, i) => ({ first_name: `Crowd${i}`, last_name: 'Member' })));
    for (const team of [6, 7]) {
      await dir.models.EmployeeTeam.destroy({ where: { team_id: team } });
      await dir.models.EmployeeTeam.bulkCreate(crowd.map((employee) => ({ employee_id: employee.id, team_id: team })));
    }
    const cleared = await client.request('PATCH', '/api/v1/teams/6/relationships/employees', { data: [] });
    t.is(cleared.status, 204, cleared.text);
    t.is(await dir.models.EmployeeTeam.count({ where: { team_id: 6 } }), 0);
    const destroyed = await client.request('DELETE', '/api/v1/teams/7');
    t.is(destroyed.status, 200, destroyed.text);
    t.is(await dir.models.EmployeeTeam.count({ where: { team_id: 7 } }), 0, 'no orphaned join rows');
    t.is(await dir.models.Employee.count({ where: { last_name: 'Member' } }), 1_100, 'the employees stay');
  });
}
