import test from 'ava';
import { Sequelize } from 'sequelize';
import { connect } from '../../../examples/employee-directory/db/connection.ts';
import { openDatabase, testDatabases } from '../../support/databases.ts';
import { spawnDirectoryServer, sqliteFileUrl, urlOf } from '../../support/child-server.ts';

/**
 * The server killed outright (SIGKILL: no shutdown, no rollback from Node)
 * while sideposted creates are in flight: the database keeps each graph
 * whole or not at all, and every write the client saw acknowledged.
 */
const TOTAL = Number(process.env.MURAL_KILL_REQUESTS ?? 60);
const POSITIONS = 3;

for (const db of testDatabases('sigkill').filter((d) => d.name !== 'mysql')) {
  test(`${db.name}: SIGKILL during concurrent sideposted creates leaves every employee with all its positions, and no orphan`, async (t) => {
    let url: string;
    if (db.name === 'sqlite') url = sqliteFileUrl();
    else {
      const sequelize = await openDatabase(db);
      url = urlOf(db, sequelize);
      await sequelize.close();
    }
    const server = await spawnDirectoryServer(url);
    t.teardown(() => server.child.kill('SIGKILL'));
    const concurrency = Number(process.env.MURAL_KILL_CONNECTIONS ?? 16);
    const outcome = await createUntilKilled(server.baseUrl, concurrency, () => server.child.kill('SIGKILL'));
    t.log(JSON.stringify(outcome.statuses), outcome.cut, outcome.created.length);
    t.deepEqual(await server.exited, { code: null, signal: 'SIGKILL' });
    t.true(outcome.created.length > 0, `some creates succeeded before the kill: ${JSON.stringify(outcome.statuses)}`);
    t.true(outcome.cut > 0, `some requests were in flight at the kill: ${JSON.stringify(outcome.statuses)}`);

    const sequelize = db.name === 'sqlite' ? connect(url) : new Sequelize(url, { logging: false });
    try {
      const counts = await sequelize.query(
        `SELECT e.id AS id, (SELECT COUNT(*) FROM positions p WHERE p.employee_id = e.id) AS n FROM employees e WHERE e.last_name = 'Killed'`,
        { plain: false, raw: true, type: 'SELECT' },
      ) as Array<{ id: number; n: number }>;
      t.deepEqual(counts.filter((row) => Number(row.n) !== POSITIONS), [], 'every employee has exactly its positions');
      const [orphans] = await sequelize.query(
        "SELECT COUNT(*) AS n FROM positions p LEFT JOIN employees e ON e.id = p.employee_id WHERE p.title LIKE 'Killed %' AND e.id IS NULL",
      );
      t.is(Number((orphans as Array<{ n: number }>)[0]!.n), 0, 'no position without its employee');
      const stored = new Set(counts.map((row) => String(row.id)));
      t.deepEqual(outcome.created.filter((id) => !stored.has(id)), [], 'every acknowledged create is stored');
    } finally {
      await sequelize.close();
    }
  });
}

/**
 * Sends sideposted creates from `concurrency` loops, calls `kill` once a few
 * have succeeded, and reports the ids the server acknowledged and how many
 * requests the kill cut off.
 */
async function createUntilKilled(baseUrl: string, concurrency: number, kill: () => void) {
  const created: string[] = [];
  const statuses: Record<string, number> = {};
  let sent = 0;
  let cut = 0;
  let killed = false;
  const loop = async () => {
    while (sent < TOTAL && !killed) {
      const n = sent++;
      try {
        const response = await fetch(`${baseUrl}/api/v1/employees`, {
          method: 'POST', headers: { 'content-type': 'application/vnd.api+json' }, body: JSON.stringify(graph(n)),
          signal: AbortSignal.timeout(60_000),
        });
        const body = (await response.json()) as { data?: { id: string } };
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
        if (response.status === 201) created.push(body.data!.id);
        if (!killed && created.length >= Math.max(3, concurrency / 2)) {
          killed = true;
          kill();
        }
      } catch {
        if (!killed) throw new Error(`request ${n} failed before the kill`);
        cut++;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return { created, cut, statuses };
}

function graph(n: number) {
  const positions = Array.from({ length: POSITIONS }, (_, i) => `p${i}`);
  return {
    data: {
      type: 'employees', attributes: { first_name: `Victim${n}`, last_name: 'Killed' },
      relationships: { positions: { data: positions.map((id) => ({ type: 'positions', 'temp-id': id, method: 'create' })) } },
    },
    included: positions.map((id) => ({ type: 'positions', 'temp-id': id, attributes: { title: `Killed ${n} ${id}` } })),
  };
}
