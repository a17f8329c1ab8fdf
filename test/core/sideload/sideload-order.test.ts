import test from 'ava';
import type { JsonApiDocument, ResourceObject } from '../../../core/index.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, type Directory } from '../../support/directory.ts';

/**
 * Sibling includes start deepest chain first, so the query everything else
 * waits on leaves first; the document is the same whatever the order.
 */
for (const db of testDatabases()) {
  let dir: Directory;
  test.before(async () => {
    dir = await openDirectory(db, 'sideload_order');
    // connections open before the tests: one still being opened could hand a later query its connection first
    await dir.resources.EmployeeResource.all({ include: 'teams,positions.department', page: { size: 10 } }).toJsonapi();
  });
  test.after.always(async () => dir?.sequelize.close());

  const tableOf = (sql: string) => /FROM "?`?(\w+)/i.exec(sql.replace(/SELECT COUNT\(\*\)[^;]*;?/i, ''))?.[1];
  const load = async (include: string) => {
    dir.resetQueries();
    const doc: JsonApiDocument = await dir.resources.EmployeeResource.all({ include, page: { size: 10 } }).toJsonapi();
    return { doc, tables: dir.queries.filter((sql) => !/COUNT\(\*\)/i.test(sql)).map(tableOf) };
  };
  const types = (doc: JsonApiDocument) => [...new Set((doc.included ?? []).map((r: ResourceObject) => r.type))];

  test.serial(`${db.name}: include=teams,positions.department reads the positions before the teams, and lists the teams first`, async (t) => {
    const { doc, tables } = await load('teams,positions.department');
    t.is(tables[0], 'employees');
    t.true(tables.indexOf('positions') < tables.indexOf('teams'), tables.join(' → '));
    t.deepEqual(types(doc), ['teams', 'positions', 'departments']);
  });

  test.serial(`${db.name}: the order of the loads changes nothing in the document`, async (t) => {
    const { doc: chainLast } = await load('teams,positions.department');
    const { doc: chainFirst, tables } = await load('positions.department,teams');
    t.true(tables.indexOf('positions') < tables.indexOf('teams'));
    t.deepEqual(chainLast.data, chainFirst.data);
    const byKey = (doc: JsonApiDocument) => (doc.included ?? []).map((r: ResourceObject) => [`${r.type}:${r.id}`, r] as const).sort(([a], [b]) => a.localeCompare(b));
    t.deepEqual(byKey(chainLast), byKey(chainFirst));
    t.deepEqual(types(chainFirst), ['positions', 'teams', 'departments']);
  });

  test.serial(`${db.name}: siblings of equal depth start in include order`, async (t) => {
    const { tables } = await load('teams,positions');
    t.true(tables.indexOf('teams') < tables.indexOf('positions'), tables.join(' → '));
  });
}
