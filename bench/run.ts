import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { RawDriver } from './baselines/raw-driver.ts';
import { openFixture, removeFixtureFiles, type Fixture } from './fixtures.ts';
import { alternateLoad, loadTest } from './http-load.ts';
import { measureCliStartup } from './cli-startup.ts';
import { cursorPages } from './cursor-pages.ts';
import { describeScaling, workerScaling } from './worker-scaling.ts';
import { createThroughput } from './create-throughput.ts';
import { networkHopContenders, HOP_MS } from './network-hop.ts';
import { alternate, heapUsedBy, median, medianRatio, type Timing } from './measure.ts';
import { apps, contenders, HAS_QUERY, handWrittenCreate, INCLUDE_QUERY, muralCreatePayload, muralPage, relatedFilterContenders } from './scenarios.ts';

/*
 * `npm run bench`: Mural against hand-written code with the same tools (a),
 * the raw driver (b) and a plain loop (c), measured alternately in one run.
 * Prints every figure and ratio; exits 1 when a target is missed.
 */
const lines: string[] = [];
const failures: string[] = [];
const say = (line: string) => {
  lines.push(line);
  console.log(line);
};
const target = (label: string, value: number, limit: number, atLeast: boolean) => {
  const ok = atLeast ? value >= limit : value <= limit;
  if (!ok) failures.push(`${label}: ${value.toFixed(2)} (target ${atLeast ? '≥' : '≤'} ${limit})`);
  return `${value.toFixed(2)} ${ok ? 'ok' : 'MISSED'} (target ${atLeast ? '≥' : '≤'} ${limit})`;
};
const ms = (n: number) => `${n.toFixed(2)} ms`;
/** Issue #17's targets: Mural at least 1.2× hand-written Sequelize (a) and 0.8× the raw driver (b). */
const TARGET_A = 1.2;
const TARGET_B = 0.8;
/**
 * Rounds of scenario 1 (MURAL_BENCH_ROUNDS overrides): each round loads every
 * server in turn, in alternating order. Nine at both loads: a lone request
 * waits on three round trips, so its rate follows the machine's speed from
 * second to second (per-round ratios 1.18 to 1.42 against (a) within one
 * run on the AMD EPYC machine), and at 16 connections the per-round ratios
 * against (a) spread from 1.06 to 1.90 on the Intel Xeon one, where a
 * median of five decided a run's verdict by one round.
 */
const roundsFor = () => Number(process.env.MURAL_BENCH_ROUNDS ?? 9);
/** Rounds of the network-hop scenario: the proxy's timers make each request's time vary more than on loopback. */
const HOP_ROUNDS = 21;

const started = performance.now();
say(`Mural benchmarks: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}`);
const fixture = await openFixture(1000);
const raw = new RawDriver(fixture.target);
await readScenarios('SQLite', fixture, raw);
const postgresUrl = process.env.MURAL_TEST_POSTGRES;
if (postgresUrl) {
  const onPostgres = await openFixture(1000, postgresUrl);
  const postgresRaw = new RawDriver(onPostgres.target);
  await readScenarios('PostgreSQL', onPostgres, postgresRaw);
  await postgresRaw.close();
  await onPostgres.sequelize.close();
}

/** Scenarios 1 and 2 on one database. */
async function readScenarios(database: string, fixture: Fixture, raw: RawDriver): Promise<void> {
  say(`\n1. GET /api/v1/employees?include=positions.department,teams&page[size]=20 over HTTP, 1,000 employees, ${database}`);
  const servers = apps(fixture, raw);
  await contenders(fixture, raw, 20, true);
  // steady state, as in-process: a second of traffic for each server before any is timed
  for (const app of Object.values(servers)) await loadTest(app, `/api/v1/employees?${INCLUDE_QUERY}`, 1, 1);
  for (const connections of [1, 16]) {
    const rounds = roundsFor();
    const runs = await alternateLoad(servers, `/api/v1/employees?${INCLUDE_QUERY}`, connections, rounds);
    const rps = (name: string) => median(runs[name]!.rps);
    const p99 = (name: string) => median(runs[name]!.p99);
    say(`   ${connections} connection(s), median of ${rounds} rounds: Mural ${rps('mural').toFixed(0)} req/s (p99 ${p99('mural')} ms), (a) Sequelize by hand ${rps('sequelize').toFixed(0)} req/s (p99 ${p99('sequelize')} ms), (b) raw driver ${rps('driver').toFixed(0)} req/s (p99 ${p99('driver')} ms)`);
    const label = `${database} scenario 1, ${connections} connection(s)`;
    say(`   Mural/(a) ${target(`${label}, Mural/(a)`, medianRatio(runs.mural!.rps, runs.sequelize!.rps), TARGET_A, true)}; Mural/(b) ${target(`${label}, Mural/(b)`, medianRatio(runs.mural!.rps, runs.driver!.rps), TARGET_B, true)}`);
  }

  say(`\n2. The same documents built in-process, ${database}`);
  for (const [label, size, include] of [['include, page[size]=20', 20, true], ['no include, page[size]=100', 100, false]] as const) {
    const timing = await alternate(await contenders(fixture, raw, size, include), 15, 10);
    const { mural, sequelize, driver } = timing as Record<'mural' | 'sequelize' | 'driver', Timing>;
    say(`   ${label}: Mural ${ms(mural.median)}, (a) ${ms(sequelize.median)}, (b) ${ms(driver.median)} (medians of 15 rounds)`);
    const name = `${database} scenario 2 (${label})`;
    say(`   throughput Mural/(a) ${target(`${name} Mural/(a)`, medianRatio(sequelize.rounds, mural.rounds), TARGET_A, true)}; Mural/(b) ${target(`${name} Mural/(b)`, medianRatio(driver.rounds, mural.rounds), TARGET_B, true)}`);
  }
  if (database === 'PostgreSQL') await networkHopScenario(fixture);
}

/** Scenario 2 again, the database one network hop away. */
async function networkHopScenario(fixture: Fixture): Promise<void> {
  const hop = await networkHopContenders(fixture);
  try {
    const { mural, sequelize, driver } = (await alternate(hop.contenders, HOP_ROUNDS, 8)) as Record<'mural' | 'sequelize' | 'driver', Timing>;
    say(`   include, page[size]=20, through a proxy holding each packet ${HOP_MS} ms each way (the database a network hop away): Mural ${ms(mural.median)}, (a) ${ms(sequelize.median)}, (b) ${ms(driver.median)} (medians of ${HOP_ROUNDS} rounds)`);
    // the proxy standing for the network is a process sharing these 2 cores: more statements at once cost it CPU a real network would not
    const ratio = (baseline: Timing) => medianRatio(baseline.rounds, mural.rounds).toFixed(2);
    say(`   throughput Mural/(a) ${ratio(sequelize)}; Mural/(b) ${ratio(driver)} (no target: the proxy shares these 2 cores with PostgreSQL and the bench)`);
  } finally {
    await hop.close();
  }
}

say('\n3. Rendering 10,000 loaded employees with positions.department and teams');
const big = await openFixture(10_000);
const bigRaw = new RawDriver(big.target);
const bigMural = muralPage(big, 'include=positions.department,teams&page[size]=10000');
const proxyDocument = await (async () => {
  const { EmployeeResource } = big.resources;
  class AllEmployees extends EmployeeResource {
    static {
      this.type = 'employees';
      this.maxPageSize = 20_000;
      this.maxIncludedRecords = 200_000; // the scaling scenarios sideload every record on purpose
    }
  }
  const query = 'include=positions.department,teams&page[size]=10000';
  const proxy = AllEmployees.all((await import('../core/index.ts')).parseQueryString(query), undefined, { request: { path: '/api/v1/employees', query, action: 'index' } });
  await proxy.toJsonapi();
  return proxy;
})();
const rows = await collectRows(bigRaw);
const { employeeDocument } = await import('./baselines/hand-serializer.ts');
const render = await alternate({ mural: () => proxyDocument.toJsonapi(), loop: async () => employeeDocument(rows) }, 7, 1);
say(`   Mural render ${ms(render.mural!.median)}, (c) plain loop ${ms(render.loop!.median)}`);
say(`   Mural/(c) time ${target('scenario 3 render time Mural/(c)', render.mural!.median / render.loop!.median, 1.5, false)}`);

say('\n4. Sideposted create: an employee with 3 positions and their departments, one transaction');
let n = 0;
const { EmployeeResource } = fixture.resources;
// 15 rounds of 5: with 7, three runs of the same code gave 1.11–1.55, one noisy round moving the median
const create = await alternate({
  mural: async () => {
    const write = EmployeeResource.build(muralCreatePayload(n++));
    if (!(await write.save())) throw new Error(JSON.stringify(write.errors));
    return write.toJsonapi();
  },
  sequelize: () => handWrittenCreate(fixture, n++),
}, 15, 5);
say(`   Mural ${ms(create.mural!.median)} (with the response document), (a) by hand ${ms(create.sequelize!.median)}; Mural/(a) throughput ${target('scenario 4 Mural/(a)', medianRatio(create.sequelize!.rounds, create.mural!.rounds), TARGET_A, true)}`);

say('\n5. Scaling');
const counts: number[] = [];
for (const size of [20, 200, 1000]) {
  counts.push(await fixture.countQueries(muralPage(fixture, `include=positions.department,teams&page[size]=${size}`)));
}
say(`   queries for 20 / 200 / 1,000 parents: ${counts.join(' / ')} ${counts.every((c) => c === counts[0]) ? 'ok (constant)' : 'MISSED (not constant)'}`);
if (!counts.every((c) => c === counts[0])) failures.push(`scenario 5 query counts ${counts.join('/')}`);
const small = muralPage(fixture, 'include=positions.department,teams&page[size]=1000');
const scale = await alternate({ small, big: bigMural }, 5, 1);
const timeRatio = scale.big!.median / scale.small!.median;
const memorySmall = await heapUsedBy(small);
const memoryBig = await heapUsedBy(bigMural);
say(`   1,000 → 10,000 records: time ×${timeRatio.toFixed(1)} ${target('scenario 5 time ratio for 10× records', timeRatio, 15, false)}, retained memory ×${(memoryBig / Math.max(memorySmall, 1)).toFixed(1)} (${(memorySmall / 1e6).toFixed(1)} MB → ${(memoryBig / 1e6).toFixed(1)} MB) ${target('scenario 5 memory ratio for 10× records', memoryBig / Math.max(memorySmall, 1), 15, false)}`);

say('\n6. CLI startup: the compiled CLI installed from the packed tarball, against the TypeScript sources run through tsx (the CLI before it was compiled)');
for (const timing of await measureCliStartup()) {
  say(`   ${timing.command}: compiled ${ms(timing.compiled)}, sources through tsx ${ms(timing.sources)}; speed-up ${target(`scenario 6 ${timing.command} speed-up`, timing.sources / timing.compiled, 1.2, true)}`);
}

say(`\n7. filter[has]: ${HAS_QUERY}, 1,000 employees, SQLite, in-process`);
const related = await alternate(await relatedFilterContenders(fixture), 7, 20);
say(`   Mural ${ms(related.mural!.median)}, (a) the same subquery by hand in Sequelize ${ms(related.sequelize!.median)}; Mural/(a) throughput ${target('scenario 7 Mural/(a)', medianRatio(related.sequelize!.rounds, related.mural!.rounds), TARGET_A, true)}`);
const cursorRecords = Number(process.env.MURAL_BENCH_CURSOR_RECORDS ?? 100_000);
say(`\n8. Deep pages: page 1 and page ${Math.ceil(cursorRecords / 20).toLocaleString('en')} of ${cursorRecords.toLocaleString('en')} employees (sort=id, page[size]=20), by offset and by cursor, SQLite (MURAL_BENCH_CURSOR_RECORDS changes the count)`);
const deep = await cursorPages(cursorRecords);
const { offsetFirst, offsetLast, cursorFirst, cursorLast } = deep.timings;
say(`   offset (with the COUNT behind its last link): page 1 ${ms(offsetFirst!.median)}, page ${deep.lastPage} ${ms(offsetLast!.median)}; last/first ×${(offsetLast!.median / offsetFirst!.median).toFixed(1)}`);
say(`   cursor: page 1 ${ms(cursorFirst!.median)}, page ${deep.lastPage} ${ms(cursorLast!.median)}; last/first ×${target('scenario 8 cursor last/first page time', cursorLast!.median / cursorFirst!.median, 2, false)}`);
say(`   page ${deep.lastPage}: offset/cursor time ×${(offsetLast!.median / cursorLast!.median).toFixed(1)}`);

if (postgresUrl) {
  say(`\n9. Worker scaling: the example server (npm start) with MURAL_WORKERS=1 and 2, GET /api/v1/employees?${INCLUDE_QUERY} over HTTP, 16 connections, 1,000 employees, PostgreSQL`);
  for (const line of describeScaling(await workerScaling(postgresUrl))) say(line);
}

say('\n10. Sideposted creates over HTTP: POST /api/v1/employees with 3 positions and their departments, one process, 4 connections');
const creates = Number(process.env.MURAL_BENCH_CREATES ?? 400);
const sqliteCreates = await createThroughput(fixture, 4, creates);
say(`   SQLite: ${sqliteCreates.requestsPerSecond.toFixed(0)} creates/s (p99 ${sqliteCreates.p99} ms)`);
if (postgresUrl) {
  const onPostgres = await openFixture(1000, postgresUrl);
  const postgresCreates = await createThroughput(onPostgres, 4, creates);
  say(`   PostgreSQL: ${postgresCreates.requestsPerSecond.toFixed(0)} creates/s (p99 ${postgresCreates.p99} ms)`);
  await onPostgres.sequelize.close();
}

await raw.close();
await bigRaw.close();
await fixture.sequelize.close();
await big.sequelize.close();
removeFixtureFiles();
say(`\nTotal ${((performance.now() - started) / 1000).toFixed(0)} s. ${failures.length === 0 ? 'Every target met.' : `Missed: ${failures.join('; ')}`}`);
process.exitCode = failures.length === 0 ? 0 : 1;

/** The rows a hand-written loop would render, loaded once with the raw driver. */
async function collectRows(driver: RawDriver) {
  const employees = await driver.all('SELECT id, first_name, last_name, age, created_at, updated_at FROM employees ORDER BY last_name ASC, id ASC LIMIT 10000');
  const positions = await driver.all('SELECT id, title, active, rank, employee_id, department_id FROM positions ORDER BY id');
  const teamRows = await driver.all('SELECT t.id, t.name, t.department_id, et.employee_id FROM teams t JOIN employee_teams et ON et.team_id = t.id ORDER BY t.id');
  const departments = await driver.all('SELECT id, name FROM departments ORDER BY id');
  return {
    employees, positions, departments, total: employees.length, size: 10_000,
    teamLinks: teamRows.map((row) => ({ team: { id: row.id, name: row.name, department_id: row.department_id }, employee_id: row.employee_id })),
  };
}
