import test from 'ava';
import express from 'express';
import { Sequelize } from 'sequelize';
import { configure, currentTransaction, DatabaseTimeout, withDeadline } from '../../../core/index.ts';
import { muralRouter } from '../../../plugins/express/index.ts';
import type { SequelizeScope } from '../../../plugins/sequelize/index.ts';
import { openDatabase, testDatabases, type TestDatabase } from '../../support/databases.ts';
import { serve, type HttpClient } from '../../support/http.ts';
import { definePeople, PEOPLE, personResource, type Person } from '../../support/people.ts';

const TIMEOUT = 1500;
configure({ databaseTimeout: TIMEOUT });
/**
 * How late past the limit an answer may come: room for a loaded machine
 * (a MySQL cancel opens a connection of its own), far short of a read that
 * ran unbounded (its 30 s) or waited out the others' limits in turn.
 */
const LATE = 2500;

/** A condition that takes far longer than the time limit: 30 s of sleep, or a billion-row recursion on SQLite. */
const SLOW: Record<TestDatabase['name'], string> = {
  sqlite: '(WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) SELECT count(*) FROM c) > 0',
  postgres: '(SELECT 1 FROM pg_sleep(30)) = 1',
  mysql: '(SELECT SLEEP(30)) = 0',
};

/** Statements still running the slow condition, seen from another connection. */
const RUNNING: Partial<Record<TestDatabase['name'], string>> = {
  postgres: "SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE '%pg_sleep(30)%' AND state = 'active' AND pid <> pg_backend_pid()",
  mysql: "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE INFO LIKE '%SLEEP(30)%' AND ID <> CONNECTION_ID()",
};

function slowPeople(sequelize: Sequelize, model: typeof Person, slow: string) {
  return class SlowPeople extends personResource(model) {
    static {
      this.type = 'people';
      this.filter('slow', 'boolean', { only: ['eq'] }, { eq: (scope: SequelizeScope) => scope.where(Sequelize.literal(slow)) });
      // a write stuck inside its transaction, after its INSERT ran
      this.afterSave(async (person: { name: string }) => {
        if (person.name === 'stuck') await sequelize.query(`SELECT 1 AS one WHERE ${slow}`, { transaction: currentTransaction() as never });
      });
    }
  };
}

/**
 * databaseTimeout: past it, the running statement is cancelled in the database
 * and the request answers 503 `database_timeout`; a write rolls back. The
 * server goes on answering normally.
 */
for (const db of testDatabases('database_timeout')) {
  let sequelize: Sequelize;
  let model: typeof Person;
  let client: HttpClient;

  let SlowPeople: ReturnType<typeof slowPeople>;

  test.before(async () => {
    sequelize = await openDatabase(db);
    model = await definePeople(sequelize);
    SlowPeople = slowPeople(sequelize, model, SLOW[db.name]);
    client = await serve(express().use(muralRouter({ resources: [SlowPeople] })));
  });
  test.after.always(async () => {
    await client?.close();
    await sequelize?.close();
  });

  const expectTimeout = (t: import('ava').ExecutionContext, response: { status: number; body: unknown; text: string }, elapsed: number) => {
    t.is(response.status, 503, response.text);
    t.deepEqual(response.body, {
      errors: [
        {
          status: '503',
          code: 'database_timeout',
          title: 'Service Unavailable',
          detail: `The database did not answer within ${TIMEOUT} ms; the query was cancelled and nothing was written`,
          meta: { retry_after: 2 },
        },
      ],
      jsonapi: { version: '1.1' },
    });
    t.true(elapsed < 15_000, `answered after ${elapsed} ms, long before the 30 s statement would end`);
  };

  const stillRunning = async (): Promise<number> => {
    const sql = RUNNING[db.name];
    if (!sql) return 0;
    const [rows] = await sequelize.query(sql);
    return Number((rows as Array<{ n: number }>)[0]!.n);
  };

  test.serial(`${db.name}: a read past the limit answers 503 and its query is cancelled`, async (t) => {
    const started = Date.now();
    const response = await client.get('/people?filter[slow]=true');
    expectTimeout(t, response, Date.now() - started);
    // on a server the answer goes out at the limit and the cancel lands just after: give it a moment to retire the statement
    for (let i = 0; i < 50 && (await stillRunning()) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    t.is(await stillRunning(), 0, 'no statement of the request is still running');
    const next = await client.get('/people?sort=id');
    t.is(next.status, 200);
    t.is((next.body as { data: unknown[] }).data.length, PEOPLE.length);
  });

  test.serial(`${db.name}: a write stuck past the limit answers 503 and rolls back`, async (t) => {
    const before = await model.count();
    const payload = (name: string) => ({ data: { type: 'people', attributes: { name, status: 'active', level: 1 } } });
    const started = Date.now();
    const response = await client.request('POST', '/people', payload('stuck'));
    expectTimeout(t, response, Date.now() - started);
    t.is(await model.count(), before, 'nothing half-written');
    t.is(await model.count({ where: { name: 'stuck' } }), 0);
    const next = await client.request('POST', '/people', payload('prompt'));
    t.is(next.status, 201, next.text);
    t.is(await model.count(), before + 1);
    await model.destroy({ where: { name: 'prompt' } });
  });

  if (db.name !== 'sqlite') {
    test.serial(`${db.name}: an update waiting on a row another transaction locks answers 503 and changes nothing`, async (t) => {
      const [ada] = await model.findAll({ where: { name: 'Ada' } });
      let release!: () => void;
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const holding = sequelize.transaction(async (transaction) => {
        await model.update({ level: 2 }, { where: { id: ada!.id }, transaction });
        locked();
        await new Promise<void>((resolve) => (release = resolve));
        throw new Error('roll the lock holder back');
      }).catch(() => undefined);
      try {
        await isLocked;
        const started = Date.now();
        const response = await client.request('PATCH', `/people/${ada!.id}`, { data: { type: 'people', id: String(ada!.id), attributes: { nickname: 'locked out' } } });
        expectTimeout(t, response, Date.now() - started);
      } finally {
        release();
        await holding;
      }
      await ada!.reload();
      t.is(ada!.nickname, 'countess', 'the update rolled back');
      t.is((await client.request('PATCH', `/people/${ada!.id}`, { data: { type: 'people', id: String(ada!.id), attributes: { rating: 4.5 } } })).status, 200);
    });
  }

  test.serial(`${db.name}: the limit holds for in-process reads too`, async (t) => {
    const error = await t.throwsAsync(SlowPeople.all({ filter: { slow: true } }).data, { instanceOf: DatabaseTimeout });
    t.is(error.code, 'database_timeout');
    t.is(((await SlowPeople.all({ sort: 'id' }).data) as unknown[]).length, PEOPLE.length);
  });

  test.serial(`${db.name}: reads running beside a cancelled statement are not cancelled with it`, async (t) => {
    // SQLite's interrupt() reaches every statement of its one connection started before the late one has stopped
    const slow = t.throwsAsync(SlowPeople.all({ filter: { slow: true } }).data, { instanceOf: DatabaseTimeout });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const patient = Array.from({ length: 4 }, () => withDeadline(() => SlowPeople.all({ sort: 'id' }).data, { timeout: 30_000, fresh: true }));
    await slow;
    const results = (await Promise.all(patient)) as unknown[][];
    t.deepEqual(results.map((r) => r.length), [PEOPLE.length, PEOPLE.length, PEOPLE.length, PEOPLE.length]);
  });

  test.serial(`${db.name}: slow reads sent together each answer 503 on time, and a read queued behind them is served`, async (t) => {
    // on SQLite they share one connection: a read waiting behind another must not start once its own time is up
    const started = Date.now();
    const slow = Array.from({ length: 3 }, () => client.get('/people?filter[slow]=true').then((response) => ({ response, elapsed: Date.now() - started })));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const queued = client.get('/people?sort=id');
    for (const { response, elapsed } of await Promise.all(slow)) {
      t.is(response.status, 503, response.text);
      t.true(elapsed < TIMEOUT + LATE, `answered after ${elapsed} ms; the limit is ${TIMEOUT} ms`);
    }
    const next = await queued;
    t.is(next.status, 200, next.text);
    t.is((next.body as { data: unknown[] }).data.length, PEOPLE.length);
    t.true(Date.now() - started < TIMEOUT + LATE + 300, 'the queued read ran once the slow ones were gone');
  });

  test.serial(`${db.name}: in-process too, slow reads sent together answer on time, and the event loop never stalls`, async (t) => {
    let longest = 0;
    let last = Date.now();
    const ticker = setInterval(() => {
      longest = Math.max(longest, Date.now() - last);
      last = Date.now();
    }, 20);
    try {
      const started = Date.now();
      const slow = Array.from({ length: 3 }, () => t.throwsAsync(SlowPeople.all({ filter: { slow: true } }).toJsonapi(), { instanceOf: DatabaseTimeout }));
      await new Promise((resolve) => setTimeout(resolve, 300));
      // a deadline of its own past the slow reads': on a loaded machine MySQL's cancels of them can take most of a second,
      // which this read waits out (what is under test is the slow reads' answers and the event loop, not this read's limit)
      const queued = withDeadline(() => SlowPeople.all({ sort: 'id' }).toJsonapi(), { timeout: TIMEOUT + LATE });
      await Promise.all(slow);
      t.true(Date.now() - started < TIMEOUT + LATE, `answered after ${Date.now() - started} ms`);
      t.is(((await queued) as { data: unknown[] }).data.length, PEOPLE.length);
      // node-sqlite3 finalizes on this thread, and finalizing waits for whatever statement the connection runs
      t.true(longest < 1000, `the event loop stood still for ${longest} ms`);
    } finally {
      clearInterval(ticker);
    }
  });

  test.serial(`${db.name}: fast requests are untouched by the limit`, async (t) => {
    const plain = await Promise.all(Array.from({ length: 5 }, () => client.get('/people?page[size]=2')));
    t.deepEqual(plain.map((r) => r.status), [200, 200, 200, 200, 200]);
  });
}

for (const db of testDatabases('database_timeout_pool').filter((d) => d.name !== 'sqlite')) {
  test(`${db.name}: time spent waiting for a pooled connection counts, and ends with a 503 too`, async (t) => {
    const sequelize = await openDatabase(db, undefined, { pool: { max: 1 } });
    const model = await definePeople(sequelize);
    const client = await serve(express().use(muralRouter({ resources: [slowPeople(sequelize, model, SLOW[db.name])] })));
    let release!: () => void;
    const holding = sequelize.transaction(() => new Promise<void>((resolve) => (release = resolve)));
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const started = Date.now();
      const response = await client.get('/people');
      t.is(response.status, 503, response.text);
      t.like((response.body as { errors: unknown[] }).errors[0], { code: 'database_timeout' });
      t.true(Date.now() - started < 15_000);
      release();
      await holding;
      t.is((await client.get('/people')).status, 200, 'the pool serves again once the connection is back');
    } finally {
      release();
      await holding;
      await client.close();
      await sequelize.close();
    }
  });
}

/** How long the slow-cancel test's cancel takes to reach the server: far past the limit and its allowance. */
const CANCEL_DELAY = 4000;

for (const db of testDatabases('database_timeout_slow_cancel').filter((d) => d.name !== 'sqlite')) {
  test(`${db.name}: a read answers 503 at its limit while a slow cancel finishes behind it, and its connection serves nothing else before the cancel is over`, async (t) => {
    // one connection: the read that follows can only run on the cancelled read's connection
    const sequelize = await openDatabase(db, undefined, { pool: { max: 1 } });
    const model = await definePeople(sequelize);
    const SlowPeople = slowPeople(sequelize, model, SLOW[db.name]);
    const client = await serve(express().use(muralRouter({ resources: [SlowPeople] })));
    const manager = (sequelize as unknown as { connectionManager: { _connect(config: unknown): Promise<object> } }).connectionManager;
    const connect = manager._connect.bind(manager);
    let cancels = 0;
    try {
      t.is((await client.get('/people')).status, 200, 'the pool holds its one connection');
      // a cancel goes over a connection of its own: here it takes seconds to open, as on a loaded server
      manager._connect = async (config) => {
        cancels++;
        await new Promise((resolve) => setTimeout(resolve, CANCEL_DELAY));
        return connect(config);
      };
      let started = Date.now();
      const response = await client.get('/people?filter[slow]=true');
      t.is(response.status, 503, response.text);
      t.like((response.body as { errors: unknown[] }).errors[0], { code: 'database_timeout' });
      t.true(Date.now() - started < TIMEOUT + LATE, `answered after ${Date.now() - started} ms, the cancel taking ${CANCEL_DELAY} ms`);
      // the connection comes back once the cancel has landed: the next read waits for it and is not cancelled by it
      started = Date.now();
      const after = (await withDeadline(() => SlowPeople.all({ sort: 'id' }).data, { timeout: 30_000, fresh: true })) as unknown[];
      t.is(after.length, PEOPLE.length);
      t.is(cancels, 1);
      // in-process reads answer on time too
      started = Date.now();
      await t.throwsAsync(SlowPeople.all({ filter: { slow: true } }).data, { instanceOf: DatabaseTimeout });
      t.true(Date.now() - started < TIMEOUT + LATE, `answered after ${Date.now() - started} ms`);
      const again = (await withDeadline(() => SlowPeople.all({ sort: 'id' }).data, { timeout: 30_000, fresh: true })) as unknown[];
      t.is(again.length, PEOPLE.length);
      t.is(cancels, 2);
    } finally {
      manager._connect = connect;
      await client.close();
      await sequelize.close();
    }
  });
}
