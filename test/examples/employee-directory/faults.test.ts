import test from 'ava';
import express from 'express';
import { Sequelize } from 'sequelize';
import { muralHealth, muralRouter } from '../../../plugins/express/index.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, tableCounts, type Directory } from '../../support/directory.ts';
import { serve, type HttpClient } from '../../support/http.ts';

/**
 * Faults a client must survive: a hook that throws (every database), a
 * deadlock (PostgreSQL, MariaDB), connections killed under load and a
 * database refusing connections (PostgreSQL). Each answers 500 or 503
 * without a partial write, and the app recovers without a restart.
 */
type ErrorDoc = { errors: Array<{ status: string; code: string; title: string; detail: string | null; meta?: Record<string, unknown> }> };
type Doc = { data: { id: string; attributes: Record<string, unknown> } };

/** A position Resource with faults to inject: a throwing hook, and a rendezvous that makes two writes deadlock. */
function faultyApp(dir: Directory) {
  const faults: { failAt?: string; rendezvous?: Rendezvous } = {};
  const fail = (hook: string) => () => {
    if (faults.failAt === hook) throw new Error(`${hook} failed: SELECT secret FROM passwords`);
  };
  class FaultyPositions extends dir.resources.PositionResource {
    static {
      this.type = 'positions';
      this.beforeSave(fail('beforeSave'));
      this.afterSave(fail('afterSave'));
      this.beforeCommit(fail('beforeCommit'));
      this.afterSave(() => faults.rendezvous?.arrive());
    }
  }
  const resources = [...Object.values(dir.resources).filter((r) => r !== dir.resources.PositionResource), FaultyPositions];
  const app = express().use(muralRouter({ resources, development: false }));
  return { app, faults };
}

/** Holds the first `size` arrivals until all have come (or `ms` passed); later arrivals pass. */
class Rendezvous {
  private count = 0;
  private release!: () => void;
  private readonly all = new Promise<void>((resolve) => (this.release = resolve));
  constructor(private readonly size: number, private readonly ms = 10_000) {}
  async arrive(): Promise<void> {
    if (++this.count >= this.size) this.release();
    await Promise.race([this.all, new Promise((resolve) => setTimeout(resolve, this.ms))]);
  }
}

function silenced<T>(fn: () => Promise<T>): Promise<T> {
  const original = console.error;
  console.error = () => undefined;
  return fn().finally(() => (console.error = original));
}

const sidepost = (first: string, titles: string[], last = 'Fault') => ({
  data: {
    type: 'employees', attributes: { first_name: first, last_name: last },
    relationships: { positions: { data: titles.map((_, i) => ({ type: 'positions', 'temp-id': `p${i}`, method: 'create' })) } },
  },
  included: titles.map((title, i) => ({ type: 'positions', 'temp-id': `p${i}`, attributes: { title } })),
});

for (const db of testDatabases('faults')) {
  let dir: Directory;
  let client: HttpClient;
  let faults: ReturnType<typeof faultyApp>['faults'];
  test.before(async () => {
    dir = await openDirectory(db, 'faults', 20);
    const built = faultyApp(dir);
    faults = built.faults;
    client = await serve(built.app);
  });
  test.after.always(async () => {
    await client?.close();
    await dir?.sequelize.close();
  });

  for (const hook of ['beforeSave', 'afterSave', 'beforeCommit']) {
    test.serial(`${db.name}: a ${hook} hook that throws: a generic 500 and nothing written`, async (t) => {
      const before = await tableCounts(dir.models);
      faults.failAt = hook;
      const response = await silenced(() => client.request('POST', '/api/v1/employees', sidepost('Hooked', ['One', 'Two'])));
      faults.failAt = undefined;
      t.is(response.status, 500);
      t.deepEqual((response.body as ErrorDoc).errors, [
        { status: '500', code: 'internal_server_error', title: 'Internal Server Error', detail: 'The server could not complete the request.' },
      ]);
      t.notRegex(response.text, /secret|SELECT|at .*\.ts/);
      t.deepEqual(await tableCounts(dir.models), before);
    });
  }

  if (db.name !== 'sqlite') {
    test.serial(`${db.name}: two writes locking two rows in opposite order: one succeeds, the other is a 503, nothing half-written`, async (t) => {
      const [a, b] = await dir.models.Position.findAll({ where: { employee_id: [1, 2] }, order: [['id', 'ASC']], limit: 2 });
      const patch = (employee: number, first: typeof a, second: typeof a, label: string) =>
        client.request('PATCH', `/api/v1/employees/${employee}`, {
          data: {
            type: 'employees', id: String(employee), attributes: { last_name: label },
            relationships: { positions: { data: [first, second].map((p) => ({ type: 'positions', id: String(p!.id), method: 'update' })) } },
          },
          included: [first, second].map((p) => ({ type: 'positions', id: String(p!.id), attributes: { title: label } })),
        });
      // each write updates its first position, then waits for the other to have done the same before touching the second
      faults.rendezvous = new Rendezvous(2);
      const responses = await Promise.all([patch(1, a, b, 'Left'), patch(2, b, a, 'Right')]);
      faults.rendezvous = undefined;

      const statuses = responses.map((r) => r.status).sort();
      t.deepEqual(statuses, [200, 503], responses.map((r) => r.text).join('\n'));
      const loser = responses.find((r) => r.status === 503)!;
      const winner = responses.find((r) => r.status === 200)!;
      t.like((loser.body as ErrorDoc).errors[0], { status: '503', code: 'database_conflict', meta: { retry_after: 1 } });
      t.notRegex(loser.text, /deadlock|UPDATE|positions/i);
      const label = (winner.body as Doc).data.attributes.last_name as string;
      const positions = await dir.models.Position.findAll({ where: { id: [a!.id, b!.id] } });
      t.deepEqual(positions.map((p) => p.title), [label, label], 'both positions carry the winner’s change, none the loser’s');
      const loserId = label === 'Left' ? 2 : 1;
      t.not((await dir.models.Employee.findByPk(loserId))!.last_name, label === 'Left' ? 'Right' : 'Left');
    });
  }

  if (db.name === 'postgres') {
    test.serial('postgres: backends terminated under load: only 2xx or 503 with Retry-After, then full recovery', async (t) => {
      const admin = new Sequelize(db.url, { logging: false });
      const database = dir.sequelize.getDatabaseName();
      const terminate = () =>
        admin.query('SELECT COUNT(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE datname = :database AND pid <> pg_backend_pid()', {
          replacements: { database }, plain: true,
        });
      const load = new Load(client.baseUrl);
      // Sequelize warns of every transaction whose connection died; that is the point here
      const warn = console.warn;
      console.warn = () => undefined;
      t.teardown(() => (console.warn = warn));
      const running = load.run(16);
      let terminated = 0;
      for (let round = 0; round < Number(process.env.MURAL_FAULT_ROUNDS ?? 15); round++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        terminated += Number(((await terminate()) as { n: number }).n);
      }
      await admin.close();
      // after the last termination, it recovers by itself: within seconds every request succeeds again
      const recovered = await load.untilAllSucceed(32, 15_000);
      await load.stop();
      await running;
      t.true(terminated > 0, 'backends were terminated');
      t.deepEqual(load.unexpected, [], 'every answer was 2xx, or 503 with Retry-After');
      t.true(load.unavailable > 0, `terminations showed as 503s (${load.ok} ok)`);
      t.true(recovered, `recovered: ${load.summary()}`);
      const [orphans] = await dir.sequelize.query(
        'SELECT COUNT(*) AS n FROM positions p LEFT JOIN employees e ON e.id = p.employee_id WHERE p.employee_id IS NOT NULL AND e.id IS NULL',
      );
      t.is(Number((orphans as Array<{ n: number }>)[0]!.n), 0, 'no orphan positions');
      const [partial] = await dir.sequelize.query(
        "SELECT COUNT(*) AS n FROM employees e WHERE e.last_name = 'Load' AND (SELECT COUNT(*) FROM positions p WHERE p.employee_id = e.id) <> 2",
      );
      t.is(Number((partial as Array<{ n: number }>)[0]!.n), 0, 'every created employee has both its positions');
    });

    test.serial('postgres: health is 503 while the database refuses connections, 200 again once it accepts them', async (t) => {
      const admin = new Sequelize(db.url, { logging: false });
      const database = dir.sequelize.getDatabaseName();
      const app = express().get('/health', muralHealth({ check: () => dir.sequelize.query('SELECT 1'), timeout: 5000 }));
      const health = await serve(app);
      try {
        t.is((await health.get('/health')).status, 200);
        await admin.query(`ALTER DATABASE "${database}" WITH ALLOW_CONNECTIONS false`);
        await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :database', { replacements: { database } });
        const down = await silenced(() => health.get('/health'));
        t.is(down.status, 503);
        t.like((down.body as ErrorDoc).errors[0], { code: 'database_unreachable' });
        const read = await silenced(() => client.get('/api/v1/employees'));
        t.is(read.status, 503);
        t.like((read.body as ErrorDoc).errors[0], { code: 'database_unavailable' });
      } finally {
        await admin.query(`ALTER DATABASE "${database}" WITH ALLOW_CONNECTIONS true`);
        await admin.close();
      }
      t.is((await health.get('/health')).status, 200);
      t.is((await client.get('/api/v1/employees')).status, 200);
      await health.close();
    });
  }
}

/** `connections` loops of mixed reads and writes, counting what they get back. */
class Load {
  ok = 0;
  unavailable = 0;
  readonly unexpected: string[] = [];
  private stopping = false;
  private streak = 0;
  constructor(private readonly baseUrl: string) {}

  async run(connections: number): Promise<void> {
    await Promise.all(Array.from({ length: connections }, (_, i) => this.loop(i)));
  }

  async stop(): Promise<void> {
    this.stopping = true;
  }

  /** Waits until `count` requests in a row succeeded; false after `ms`. */
  async untilAllSucceed(count: number, ms: number): Promise<boolean> {
    this.streak = 0;
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (this.streak >= count) return true;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return false;
  }

  summary(): string {
    return `${this.ok} ok, ${this.unavailable} unavailable, streak ${this.streak}`;
  }

  private async loop(i: number): Promise<void> {
    for (let n = 0; !this.stopping; n++) {
      const write = (i + n) % 3 === 0;
      const init: RequestInit = write
        ? { method: 'POST', body: JSON.stringify(sidepost(`L${i}`, ['A', 'B'], 'Load')), headers: { 'content-type': 'application/vnd.api+json' } }
        : {};
      const path = write ? '/api/v1/employees' : '/api/v1/employees?include=positions&page[size]=10';
      await this.record(path, init);
    }
  }

  private async record(path: string, init: RequestInit): Promise<void> {
    try {
      const response = await fetch(this.baseUrl + path, { ...init, signal: AbortSignal.timeout(30_000) });
      const text = await response.text();
      if (response.status < 300) {
        this.ok++;
        this.streak++;
      } else if (response.status === 503 && response.headers.get('retry-after') === '1' && !/terminat|SELECT/i.test(text)) {
        this.unavailable++;
        this.streak = 0;
      } else {
        this.unexpected.push(`${response.status} ${text.slice(0, 300)}`);
        this.streak = 0;
      }
    } catch (error) {
      this.unexpected.push(`${init.method ?? 'GET'} ${path}: ${(error as Error).message}`);
    }
  }
}
