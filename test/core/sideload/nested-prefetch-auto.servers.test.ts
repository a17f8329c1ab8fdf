import test from 'ava';
import { configure } from '../../../core/index.ts';
import { EXPLORE_EVERY } from '../../../core/sideload/prefetch-choice.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, type Directory } from '../../support/directory.ts';
import { departmentQueries, readsThroughPositions, readsThroughTeams, wrappingResolve } from '../../support/nested-prefetch.ts';

/** Loads each way before the medians decide (prefetch-choice.ts), alternating from a prefetch. */
const FIRST_LOADS = 6;
/** The loads after those: one round of EXPLORE_EVERY, its last the one that explores. */
const decided = (first: boolean) => Array.from({ length: EXPLORE_EVERY }, (_, i) => (FIRST_LOADS + i + 1) % EXPLORE_EVERY === 0 ? !first : first);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `nestedPrefetch: 'auto'` (the default) times each relationship's loads
 * both ways, from its parents' query to its records, and keeps the faster:
 * here the delays stand for a database a network hop away, and for one
 * where the prefetch is the slow part. A file of its own: what `auto`
 * learnt lives as long as the process, per relationship.
 */
for (const db of testDatabases('nested_prefetch_auto')) {
  if (db.name === 'sqlite') continue;
  let dir: Directory;
  test.before(async () => {
    dir = await openDirectory(db, 'nested_prefetch_auto', 30);
    configure({ nestedPrefetch: 'auto' });
  });
  test.after.always(async () => dir?.sequelize.close());

  test.serial(`${db.name}: with positions and departments each 30 ms away, it alternates ${FIRST_LOADS} loads, then prefetches but for one load in ${EXPLORE_EVERY}`, async (t) => {
    const { EmployeeResource, PositionResource, DepartmentResource } = dir.resources;
    const far = (original: (...args: unknown[]) => Promise<unknown[]>) => async function (this: unknown, ...args: unknown[]) {
      // far enough that a moment of CPU contention on a busy test machine is unlikely to turn the medians (30 ms against 60; at 15 ms it failed once in 8 runs of the folder)
      await sleep(30);
      return original.apply(this, args);
    };
    const through = await wrappingResolve(PositionResource, far, () => wrappingResolve(DepartmentResource, far, async () => {
      const seen: boolean[] = [];
      for (let i = 0; i < FIRST_LOADS + EXPLORE_EVERY; i++) {
        dir.resetQueries();
        const doc = await EmployeeResource.all({ include: 'positions.department', page: { size: 5 }, sort: 'id' }).toJsonapi();
        t.true(doc.included!.some((r) => r.type === 'departments'));
        seen.push(departmentQueries(dir).some(readsThroughPositions));
      }
      return seen;
    }));
    t.deepEqual(through.slice(0, FIRST_LOADS), [true, false, true, false, true, false]);
    t.deepEqual(through.slice(FIRST_LOADS), decided(true));
  });

  test.serial(`${db.name}: where the prefetch itself is 40 ms slower, it stops prefetching but for one load in ${EXPLORE_EVERY}`, async (t) => {
    const { EmployeeResource, TeamResource, DepartmentResource } = dir.resources;
    let teamsLoaded = false;
    const through = await wrappingResolve(TeamResource, (original) => async function (this: unknown, ...args: unknown[]) {
      teamsLoaded = false;
      try {
        return await original.apply(this, args);
      } finally {
        teamsLoaded = true;
      }
    }, () => wrappingResolve(DepartmentResource, (original) => async function (this: unknown, ...args: unknown[]) {
      // asked for before the teams are in: the prefetch
      if (!teamsLoaded) await sleep(40);
      return original.apply(this, args);
    }, async () => {
      const seen: boolean[] = [];
      for (let i = 0; i < FIRST_LOADS + EXPLORE_EVERY; i++) {
        dir.resetQueries();
        await EmployeeResource.all({ include: 'teams.department', page: { size: 5 }, sort: 'id' }).toJsonapi();
        seen.push(departmentQueries(dir).some(readsThroughTeams));
      }
      return seen;
    }));
    t.deepEqual(through.slice(0, FIRST_LOADS), [true, false, true, false, true, false]);
    t.deepEqual(through.slice(FIRST_LOADS), decided(false));
  });

  test.serial(`${db.name}: requests with deep filters on the nested type neither try a prefetch nor count towards the choice`, async (t) => {
    const { DepartmentResource } = dir.resources;
    const employeeQueries = () => dir.queries.filter((sql) => /FROM\s+["`]employees["`]/i.test(sql));
    const throughPositions = (sql: string) => /IN \(SELECT\s+["`]Position["`]\.["`]employee_id["`] FROM ["`]positions["`]/i.test(sql);
    const someone = (await dir.models.Employee.findOne({ order: [['id', 'ASC']] }))!.get('first_name') as string;
    const load = async (filter?: Record<string, unknown>) => {
      dir.resetQueries();
      const doc = await DepartmentResource.all({ include: 'positions.employee', page: { size: 3 }, sort: 'id', ...(filter && { filter }) }).toJsonapi();
      t.true(doc.included!.some((r) => r.type === 'employees'));
      return employeeQueries().some(throughPositions);
    };
    for (let i = 0; i < FIRST_LOADS; i++) t.false(await load({ 'positions.employee.first_name': someone }));
    const seen: boolean[] = [];
    for (let i = 0; i < FIRST_LOADS; i++) seen.push(await load());
    // as for a relationship never loaded before: the filtered requests left no timings behind
    t.deepEqual(seen, [true, false, true, false, true, false]);
  });
}
