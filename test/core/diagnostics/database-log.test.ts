import test from 'ava';
import { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { DATABASE_CHANNEL, withDatabaseLog, type DatabaseEvent, type ResourceObject, type WriteDocument } from '../../../core/index.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, type Directory } from '../../support/directory.ts';

/**
 * `withDatabaseLog`: the database operations a piece of work runs, as the
 * mural:database channel publishes them, on every test database.
 */
for (const db of testDatabases('database_log')) {
  let dir: Directory;
  test.before(async () => {
    dir = await openDirectory(db, 'database_log', 40);
  });
  test.after.always(async () => dir?.sequelize.close());

  const byType = (records: ResourceObject[] = []) => {
    const counts: Record<string, number> = {};
    for (const r of records) counts[r.type] = (counts[r.type] ?? 0) + 1;
    return counts;
  };

  test(`${db.name}: a read with includes logs one resolve per Resource, with the records each read`, async (t) => {
    const log: DatabaseEvent[] = [];
    const doc = await withDatabaseLog(log, () =>
      dir.resources.EmployeeResource.all({ include: 'positions.department', sort: 'id', page: { size: 5 } }).toJsonapi());
    t.true(log.every((e) => e.operation === 'resolve' && e.error === undefined && e.duration >= 0));
    const records: Record<string, number> = {};
    for (const e of log) records[e.resource] = (records[e.resource] ?? 0) + e.records!;
    const included = byType(doc.included as ResourceObject[]);
    t.deepEqual(records, { employees: 5, positions: included.positions, departments: included.departments });
    t.true(included.positions! > 0 && included.departments! > 0);
  });

  test(`${db.name}: a sideposted create logs each save, then the transaction around them`, async (t) => {
    const log: DatabaseEvent[] = [];
    const document: WriteDocument = {
      data: { type: 'employees', attributes: { first_name: 'Log', last_name: 'Book' }, relationships: { positions: { data: [{ type: 'positions', 'temp-id': 'p', method: 'create' }] } } },
      included: [{ type: 'positions', 'temp-id': 'p', attributes: { title: 'Scribe' } }],
    };
    const created = await withDatabaseLog(log, async () => {
      const proxy = dir.resources.EmployeeResource.build(document);
      t.true(await proxy.save(), JSON.stringify(proxy.errors));
      return proxy;
    });
    const writes = log.filter((e) => e.operation !== 'resolve' && e.operation !== 'find');
    t.deepEqual(writes.map((e) => `${e.resource} ${e.operation}`), ['employees save', 'positions save', 'employees transaction']);
    const transaction = writes.at(-1)!;
    t.true(writes.slice(0, -1).every((e) => e.duration <= transaction.duration), 'the transaction lasts as long as what ran inside it');
    t.truthy(created);
  });

  test(`${db.name}: a tracer's own AsyncLocalStorage tells which piece of concurrent work each event belongs to`, async (t) => {
    const span = new AsyncLocalStorage<string>();
    const seen: Array<[string | undefined, string, number | undefined]> = [];
    const listener = (message: unknown) => {
      const event = message as DatabaseEvent;
      if (event.resource === 'teams' || event.resource === 'departments') seen.push([span.getStore(), event.resource, event.records]);
    };
    subscribe(DATABASE_CHANNEL, listener);
    try {
      await Promise.all([
        span.run('request-a', () => dir.resources.TeamResource.all({ page: { size: 2 } }).toJsonapi()),
        span.run('request-b', () => dir.resources.DepartmentResource.all({ page: { size: 3 } }).toJsonapi()),
      ]);
    } finally {
      unsubscribe(DATABASE_CHANNEL, listener);
    }
    t.deepEqual(seen.filter(([id]) => id !== undefined).sort(), [['request-a', 'teams', 2], ['request-b', 'departments', 3]]);
  });

  test(`${db.name}: concurrent work logs only its own operations`, async (t) => {
    const logs = Array.from({ length: 6 }, () => [] as DatabaseEvent[]);
    await Promise.all(logs.map((log, i) => withDatabaseLog(log, () =>
      (i % 2 === 0 ? dir.resources.TeamResource : dir.resources.DepartmentResource).all({ page: { size: 1 + i } }).toJsonapi())));
    logs.forEach((log, i) => t.deepEqual(log.map((e) => `${e.resource} ${e.records}`), [`${i % 2 === 0 ? 'teams' : 'departments'} ${1 + i}`]));
    const outside: DatabaseEvent[] = [];
    await withDatabaseLog(outside, async () => undefined);
    await dir.resources.TeamResource.all({ page: { size: 1 } }).toJsonapi();
    t.deepEqual(outside, [], 'work outside the log is not logged');
  });
}
