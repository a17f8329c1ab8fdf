import test from 'ava';
import { Op } from 'sequelize';
import { configure } from '../../../core/index.ts';
import { configureSqlite } from '../../../plugins/sequelize/index.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, type Directory } from '../../support/directory.ts';
import { serve, type HttpClient, type HttpResponse } from '../../support/http.ts';
import { sqliteFileDatabase } from '../../support/sqlite-file.ts';

const ATOMIC = { 'content-type': 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"' };
/** Employees × teams whose memberships the writes race over: 6 × 5 = 30 pairs, each written from both sides at once. */
const EMPLOYEES = [1, 2, 3, 4, 5, 6];
const TEAMS = [1, 2, 3, 4, 5];
const PAIRS = EMPLOYEES.flatMap((employee) => TEAMS.map((team) => ({ employee, team })));
type Pair = (typeof PAIRS)[number];

const member = (type: string, id: number) => ({ type, id: String(id) });

/**
 * Issue 34, finding 1: the same membership written from both sides at once
 * (`/employees/E/relationships/teams` and `/teams/T/relationships/employees`),
 * and as atomic operations that name the same pairs in opposite orders. Every
 * request succeeds (adding a member that is there is a success, and a
 * deadlock between two writes is run again rather than answered 503), and
 * the join table holds exactly one row per pair the requests asked for.
 * SQLite runs on a file, as `npm start` does.
 */
const file = sqliteFileDatabase();
test.after.always(() => file.remove());
// this suite is about every write succeeding, also on a loaded machine where SQLite's queue of them takes a while
test.before(() => configure({ databaseTimeout: 60_000 }));

for (const db of [file, ...testDatabases('relationship_races')]) {
  const label = db === file ? 'sqlite file' : db.name;
  let dir: Directory;
  let client: HttpClient;
  test.before(async () => {
    dir = await openDirectory(db, 'relationship_races', 10);
    configureSqlite(dir.sequelize, { writeQueueTimeout: 60_000 });
    client = await serve(dir.app);
  });
  test.after.always(async () => {
    await client?.close();
    await dir?.sequelize.close();
  });

  const fromEmployee = (method: string, { employee, team }: Pair) =>
    client.request(method, `/api/v1/employees/${employee}/relationships/teams`, { data: [member('teams', team)] });
  const fromTeam = (method: string, { employee, team }: Pair) =>
    client.request(method, `/api/v1/teams/${team}/relationships/employees`, { data: [member('employees', employee)] });
  const operation = (op: 'add' | 'remove', side: 'employees' | 'teams', { employee, team }: Pair) =>
    side === 'employees'
      ? { op, ref: { type: 'employees', id: String(employee), relationship: 'teams' }, data: [member('teams', team)] }
      : { op, ref: { type: 'teams', id: String(team), relationship: 'employees' }, data: [member('employees', employee)] };
  /** Two documents per pair of pairs, p then q from one side, q then p from the other: their locks cross. */
  const crossing = (op: 'add' | 'remove') =>
    PAIRS.flatMap((p, k) => {
      const q = PAIRS[(k + 7) % PAIRS.length]!;
      return [
        [operation(op, 'employees', p), operation(op, 'teams', q)],
        [operation(op, 'employees', q), operation(op, 'teams', p)],
      ].map((list) => client.request('POST', '/api/v1/operations', { 'atomic:operations': list }, ATOMIC));
    });

  const rowsOfPairs = async () => {
    const rows = await dir.models.EmployeeTeam.findAll({ where: { employee_id: { [Op.in]: EMPLOYEES } }, raw: true });
    return rows.map((row) => `${row.employee_id}:${row.team_id}`).sort();
  };
  const everyPair = PAIRS.map(({ employee, team }) => `${employee}:${team}`).sort();
  const failures = (responses: HttpResponse[]) => responses.filter((r) => r.status >= 300).map((r) => `${r.status} ${r.text.slice(0, 300)}`);

  test.serial(`${label}: each pair added and removed from both sides at once, then by crossing atomic operations: every request succeeds, one row per pair`, async (t) => {
    await dir.models.EmployeeTeam.destroy({ where: { employee_id: { [Op.in]: EMPLOYEES } } });
    const rounds: Array<[string, () => Array<Promise<HttpResponse>>, string[]]> = [
      ['POST from both sides', () => PAIRS.flatMap((pair) => [fromEmployee('POST', pair), fromTeam('POST', pair)]), everyPair],
      ['DELETE from both sides', () => PAIRS.flatMap((pair) => [fromTeam('DELETE', pair), fromEmployee('DELETE', pair)]), []],
      ['atomic adds in crossing orders', () => crossing('add'), everyPair],
      ['atomic removes in crossing orders', () => crossing('remove'), []],
    ];
    let sent = 0;
    for (const [name, send, expected] of rounds) {
      const responses = await Promise.all(send());
      sent += responses.length;
      t.deepEqual(failures(responses), [], `${name}: every request succeeds`);
      t.deepEqual(await rowsOfPairs(), expected, `${name}: the join table holds what the requests asked for`);
    }
    t.true(sent >= 240);
  });

  test.serial(`${label}: every team's and every employee's membership replaced at once from both sides agree on one row per pair`, async (t) => {
    const replaceTeams = (employee: number) =>
      client.request('PATCH', `/api/v1/employees/${employee}/relationships/teams`, { data: TEAMS.map((team) => member('teams', team)) });
    const replaceEmployees = (team: number) =>
      client.request('PATCH', `/api/v1/teams/${team}/relationships/employees`, { data: EMPLOYEES.map((employee) => member('employees', employee)) });
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => [...EMPLOYEES.map(replaceTeams), ...TEAMS.map(replaceEmployees)]).flat(),
    );
    t.true(responses.length >= 60);
    t.deepEqual(failures(responses), []);
    t.deepEqual(await rowsOfPairs(), everyPair);
    const teamRows = await dir.models.EmployeeTeam.count({ where: { team_id: { [Op.in]: TEAMS } } });
    t.is(teamRows, PAIRS.length, 'each team holds exactly the six employees, nobody else');
  });
}
