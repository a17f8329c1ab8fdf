import test from 'ava';
import { createApp } from '../../../examples/employee-directory/app.ts';
import { seed } from '../../../examples/employee-directory/db/seed.ts';
import { configureReplicas } from '../../../plugins/sequelize/index.ts';
import { QueryTypes, Sequelize } from 'sequelize';
import { DatabaseTimeout, readsOwnWrites, withDeadline } from '../../../core/index.ts';
import type { SequelizeScope } from '../../../plugins/sequelize/index.ts';
import { eventually } from '../../support/child-server.ts';
import { openDatabase } from '../../support/databases.ts';
import { serve, type HttpClient } from '../../support/http.ts';
import { openReplicated, replicaUrl, startStandby, stopStandby, type ReplicatedDatabase } from '../../support/replica.ts';

type Resource = { id: string; type: string; relationships?: Record<string, { data: unknown }> };
type Doc = { data: Resource & Resource[]; included?: Resource[] };

const RETRY_AFTER = 500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The example directory on a PostgreSQL primary with a streaming hot standby
 * as its read replica (Sequelize's `replication`). Where each statement ran
 * is what the connection that ran it was connected to; the standby's own
 * `pg_stat_activity` and a paused replay (the replica then answers from
 * before a write) show it from the servers' side. Serial: the last test
 * stops the standby, and every test here shares it.
 */
if (replicaUrl()) {
  let db: ReplicatedDatabase;
  let client: HttpClient;
  let app: ReturnType<typeof createApp>;
  test.before(async () => {
    db = await openReplicated('read_replicas');
    const seeded = createApp(db.primary);
    await db.primary.sync({ force: true });
    await seed(seeded.models, { employees: 30 });
    await db.caughtUp();
    app = createApp(db.sequelize);
    configureReplicas(db.sequelize, { retryAfter: RETRY_AFTER });
    client = await serve(app.app);
  });
  test.after.always(async () => {
    // whatever happened, the standby replays and runs again for the next suite
    await startStandby(db.replicaPort).catch(() => undefined);
    await db?.replica.query('SELECT pg_wal_replay_resume()').catch(() => undefined);
    await client?.close();
    await db?.close();
  });
  const ports = () => new Set(db.queries.map((q) => q.port));
  const reset = () => void (db.queries.length = 0);
  const teamIds = (doc: Doc) => (doc.included ?? []).filter((r) => r.type === 'teams').map((r) => r.id).sort();

  test.serial('every read of an index, its count and its sideloads runs on the replica; in-process reads too', async (t) => {
    reset();
    const index = await client.get('/api/v1/employees?include=positions.department,teams&stats[total]=count&page[size]=5');
    t.is(index.status, 200);
    t.is((index.body as Doc).data.length, 5);
    t.true(db.queries.length >= 4, 'the page, its count and three sideloads');
    t.deepEqual(ports(), new Set([db.replicaPort]));

    reset();
    const list = await app.resources.EmployeeResource.all({ include: 'positions', page: { size: 3 } }).toJsonapi();
    t.is((list.data as unknown[]).length, 3);
    t.deepEqual(ports(), new Set([db.replicaPort]));

    // the standby's side: a backend of this database whose last statement read the directory's tables
    const [rows] = await db.replica.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'SELECT%'`,
    );
    t.true((rows as Array<{ n: number }>)[0]!.n > 0);
  });

  test.serial('a write, its row locks and its response document run on the primary: the response shows what the replica has not replayed', async (t) => {
    const before = teamIds((await client.get('/api/v1/employees/5?include=teams')).body as Doc);
    const added = ['1', '2', '3', '4', '5', '6'].find((id) => !before.includes(id))!;
    await db.replica.query('SELECT pg_wal_replay_pause()');
    try {
      reset();
      const patch = { data: { type: 'employees', id: '5', relationships: { teams: { data: [{ type: 'teams', id: added }] } } } };
      const written = await client.request('PATCH', '/api/v1/employees/5?include=teams', patch, { 'If-Match': '*' });
      t.is(written.status, 200);
      t.deepEqual(teamIds(written.body as Doc), [...before, added].sort(), 'the response reads the write it answers');
      t.deepEqual(ports(), new Set([db.primaryPort]));

      reset();
      const create = {
        data: {
          type: 'employees', attributes: { first_name: 'Rita', last_name: 'Replica', age: 40 },
          relationships: { positions: { data: [{ type: 'positions', 'temp-id': 'p1', method: 'create' }] } },
        },
        included: [{ type: 'positions', 'temp-id': 'p1', attributes: { title: 'Standby', active: true } }],
      };
      const created = await client.request('POST', '/api/v1/employees?include=positions,teams', create);
      t.is(created.status, 201, created.text);
      t.deepEqual(ports(), new Set([db.primaryPort]));
      const id = (created.body as Doc).data.id;

      // a relationship endpoint's write checks what it wrote (204, or 200 with the linkage) on the primary too
      reset();
      const rows: Array<{ id: number }> = await db.primary.query('SELECT team_id AS id FROM employee_teams WHERE employee_id = 6', { type: QueryTypes.SELECT });
      const teamsOf6 = rows.map((row) => String(row.id));
      const joined = ['1', '2', '3', '4', '5', '6'].find((id) => !teamsOf6.includes(id))!;
      const member = await client.request('POST', '/api/v1/employees/6/relationships/teams', { data: [{ type: 'teams', id: joined }] });
      t.is(member.status, 204, `the member it added is there: ${member.text}`);
      t.deepEqual(ports(), new Set([db.primaryPort]));

      // reads outside the write go to the replica, which has not replayed it
      t.deepEqual(teamIds((await client.get('/api/v1/employees/5?include=teams')).body as Doc), before);
      t.is((await client.get(`/api/v1/employees/${id}`)).status, 404);
      await db.replica.query('SELECT pg_wal_replay_resume()');
      await db.caughtUp();
      t.is((await client.get(`/api/v1/employees/${id}`)).status, 200);
      t.deepEqual(teamIds((await client.get('/api/v1/employees/5?include=teams')).body as Doc), [...before, added].sort());
    } finally {
      await db.replica.query('SELECT pg_wal_replay_resume()');
    }
  });

  test.serial('a read on the replica past databaseTimeout is cancelled on the replica', async (t) => {
    const { EmployeeResource } = app.resources;
    class SlowEmployees extends EmployeeResource {
      static {
        this.type = 'employees';
        this.filter('slow', 'boolean', {}, { eq: (scope: SequelizeScope) => scope.where(Sequelize.literal('(SELECT 1 FROM pg_sleep(30)) = 1')) });
      }
    }
    const sleeping = async () => {
      const [rows] = await db.replica.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE '%pg_sleep(30)%' AND state = 'active' AND pid <> pg_backend_pid()",
      );
      return (rows as Array<{ n: number }>)[0]!.n;
    };
    reset();
    const error = await t.throwsAsync(withDeadline(() => SlowEmployees.all({ filter: { slow: true } }).data, { timeout: 500 }), { instanceOf: DatabaseTimeout });
    t.is(error.code, 'database_timeout');
    t.deepEqual(ports(), new Set([db.replicaPort]));
    await eventually(async () => (await sleeping()) === 0, 5000, 'the statement on the replica cancelled');
    t.is(await sleeping(), 0);
  });

  test.serial('with the replica down, reads go to the primary; once it is back, to the replica again', async (t) => {
    t.timeout(120_000);
    await client.get('/api/v1/employees?page[size]=2');
    try {
      await stopStandby(db.replicaPort);
      for (let i = 0; i < 5; i++) {
        reset();
        const response = await client.get('/api/v1/employees?include=positions&page[size]=4');
        t.is(response.status, 200, response.text);
        t.deepEqual(ports(), new Set([db.primaryPort]));
      }
      const list = await app.resources.EmployeeResource.all({ page: { size: 2 } }).toJsonapi();
      t.is((list.data as unknown[]).length, 2);
    } finally {
      await startStandby(db.replicaPort);
    }
    await db.caughtUp();
    await sleep(RETRY_AFTER);
    // the first read after the pause tries the replica (reads alongside it keep to the primary); then all go there
    t.is((await client.get('/api/v1/employees?page[size]=4')).status, 200);
    reset();
    for (let i = 0; i < 3; i++) t.is((await client.get('/api/v1/employees?page[size]=4')).status, 200);
    t.deepEqual(ports(), new Set([db.replicaPort]));
  });
}

/**
 * What the routing rests on, on every database: a read knows whether it must
 * see the request's own writes (it then goes to the primary), from inside a
 * write's transaction to the response document of a committed write.
 */
test('a read sees its own writes inside a write and while answering it, not otherwise', async (t) => {
  const reads: boolean[] = [];
  const sequelize = await openDatabase({ name: 'sqlite', url: ':memory:' }, undefined, {
    logging: (sql) => void (/^Executing \([^)]*\): SELECT/.test(sql) && reads.push(readsOwnWrites())),
  });
  const directory = createApp(sequelize);
  await sequelize.sync();
  await seed(directory.models, { employees: 5 });
  const local = await serve(directory.app);
  try {
    reads.length = 0;
    t.is((await local.get('/api/v1/employees?include=positions,teams')).status, 200);
    t.true(reads.length >= 3);
    t.true(reads.every((own) => !own), 'plain reads may go to a replica');
    reads.length = 0;
    const patch = { data: { type: 'employees', id: '2', relationships: { teams: { data: [{ type: 'teams', id: '1' }] } } } };
    t.is((await local.request('PATCH', '/api/v1/employees/2?include=teams,positions', patch)).status, 200);
    t.true(reads.length >= 3, 'the write reads the record and its teams; the response sideloads teams and positions');
    t.true(reads.every((own) => own), 'every read of a write and its response must see the write');
  } finally {
    await local.close();
    await sequelize.close();
  }
});
