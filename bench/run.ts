import os from 'node:os';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { openFixture, removeFixtureFiles, type Fixture } from './fixtures.ts';
import { measureCliStartup } from './cli-startup.ts';
import { cursorPages } from './cursor-pages.ts';
import { describeScaling, workerScaling } from './worker-scaling.ts';
import { createThroughput } from './create-throughput.ts';
import { alternate, heapUsedBy, medianRatio } from './measure.ts';
import { readScenarios } from './read-scenarios.ts';
import { ruleCostContenders } from './rule-cost.ts';
import { ms, Report, TARGET_A } from './report.ts';
import { HAS_QUERY, handWrittenCreate, INCLUDE_QUERY, muralCreatePayload, muralPage, muralProxy, relatedFilterContenders } from './scenarios.ts';

/*
 * `npm run bench`: Mural against hand-written code with the same tools (a),
 * the driver by hand (b), better-sqlite3 by hand (c) and a plain loop,
 * measured alternately in one run. Prints every figure and ratio; exits 1
 * when a target is missed. MURAL_BENCH_ONLY=reads runs the read scenarios
 * (1 and 2) alone.
 */
const report = new Report();
const say = (line: string) => report.say(line);
const target = (label: string, value: number, limit: number, atLeast: boolean) => report.target(label, value, limit, atLeast);

const started = performance.now();
say(`Mural benchmarks: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, Node ${process.version}${nodeFlags()}`);
const fixture = await openFixture(1000);
await readScenarios(report, 'SQLite', fixture);
const postgresUrl = process.env.MURAL_TEST_POSTGRES;
if (postgresUrl) {
  const onPostgres = await openFixture(1000, postgresUrl);
  await readScenarios(report, 'PostgreSQL', onPostgres);
  await onPostgres.sequelize.close();
}
if (process.env.MURAL_BENCH_ONLY !== 'reads') await otherScenarios();
await fixture.sequelize.close();
removeFixtureFiles();
say(`\nTotal ${((performance.now() - started) / 1000).toFixed(0)} s. ${report.failures.length === 0 ? 'Every target met.' : `Missed: ${report.failures.join('; ')}`}`);
process.exitCode = report.failures.length === 0 ? 0 : 1;

/** Scenarios 3 to 10. */
async function otherScenarios(): Promise<void> {
  const big = await openFixture(10_000);
  const bigMural = muralPage(big, 'include=positions.department,teams&page[size]=10000');
  await renderingScenario(big);
  await createScenario();
  await scalingScenario(bigMural);
  await big.sequelize.close();
  await startupAndQueryScenarios();
  await throughputScenarios();
}

/** Scenario 3: rendering alone, against a plain loop over the same rows. */
async function renderingScenario(big: Fixture): Promise<void> {
  say('\n3. Rendering 10,000 loaded employees with positions.department and teams');
  // one proxy, loaded once: only its rendering is timed
  const proxyDocument = muralProxy(big, 'include=positions.department,teams&page[size]=10000')();
  await proxyDocument.toJsonapi();
  const rows = collectRows(big.file);
  const { employeeDocument } = await import('./baselines/hand-serializer.ts');
  const render = await alternate({ mural: () => proxyDocument.toJsonapi(), loop: async () => employeeDocument(rows) }, 7, 1);
  say(`   Mural render ${ms(render.mural!.median)}, a plain loop by hand ${ms(render.loop!.median)}`);
  say(`   Mural/loop time ${target('scenario 3 render time Mural/loop', render.mural!.median / render.loop!.median, 1.5, false)}`);
}

async function createScenario(): Promise<void> {
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
}

async function scalingScenario(bigMural: () => Promise<unknown>): Promise<void> {
  say('\n5. Scaling');
  const counts: number[] = [];
  for (const size of [20, 200, 1000]) {
    counts.push(await fixture.countQueries(muralPage(fixture, `include=positions.department,teams&page[size]=${size}`)));
  }
  say(`   queries for 20 / 200 / 1,000 parents: ${counts.join(' / ')} ${counts.every((c) => c === counts[0]) ? 'ok (constant)' : 'MISSED (not constant)'}`);
  if (!counts.every((c) => c === counts[0])) report.failures.push(`scenario 5 query counts ${counts.join('/')}`);
  const small = muralPage(fixture, 'include=positions.department,teams&page[size]=1000');
  const scale = await alternate({ small, big: bigMural }, 5, 1);
  const timeRatio = scale.big!.median / scale.small!.median;
  const memorySmall = await heapUsedBy(small);
  const memoryBig = await heapUsedBy(bigMural);
  say(`   1,000 → 10,000 records: time ×${timeRatio.toFixed(1)} ${target('scenario 5 time ratio for 10× records', timeRatio, 15, false)}, retained memory ×${(memoryBig / Math.max(memorySmall, 1)).toFixed(1)} (${(memorySmall / 1e6).toFixed(1)} MB → ${(memoryBig / 1e6).toFixed(1)} MB) ${target('scenario 5 memory ratio for 10× records', memoryBig / Math.max(memorySmall, 1), 15, false)}`);
}

/** Scenarios 6 to 8. */
async function startupAndQueryScenarios(): Promise<void> {
  say('\n6. CLI startup: the compiled CLI installed from the packed tarball, against the TypeScript sources run through tsx (the CLI before it was compiled)');
  for (const timing of await measureCliStartup()) {
    say(`   ${timing.command}: compiled ${ms(timing.compiled)}, sources through tsx ${ms(timing.sources)}; speed-up ${target(`scenario 6 ${timing.command} speed-up`, timing.sources / timing.compiled, 1.2, true)}`);
  }

  say(`\n7. filter[has]: ${HAS_QUERY}, 1,000 employees, SQLite, in-process`);
  const related = await alternate(await relatedFilterContenders(fixture), 7, 20);
  say(`   Mural ${ms(related.mural!.median)}, (a) the same subquery by hand in Sequelize ${ms(related.sequelize!.median)}; Mural/(a) throughput ${target('scenario 7 Mural/(a)', medianRatio(related.sequelize!.rounds, related.mural!.rounds), TARGET_A, true)}`);
  await ruleCostScenario();
  const cursorRecords = Number(process.env.MURAL_BENCH_CURSOR_RECORDS ?? 100_000);
  say(`\n8. Deep pages: page 1 and page ${Math.ceil(cursorRecords / 20).toLocaleString('en')} of ${cursorRecords.toLocaleString('en')} employees (sort=id, page[size]=20), by offset and by cursor, SQLite (MURAL_BENCH_CURSOR_RECORDS changes the count)`);
  const deep = await cursorPages(cursorRecords);
  const { offsetFirst, offsetLast, cursorFirst, cursorLast } = deep.timings;
  say(`   offset (with the COUNT behind its last link): page 1 ${ms(offsetFirst!.median)}, page ${deep.lastPage} ${ms(offsetLast!.median)}; last/first ×${(offsetLast!.median / offsetFirst!.median).toFixed(1)}`);
  say(`   cursor: page 1 ${ms(cursorFirst!.median)}, page ${deep.lastPage} ${ms(cursorLast!.median)}; last/first ×${target('scenario 8 cursor last/first page time', cursorLast!.median / cursorFirst!.median, 2, false)}`);
  say(`   page ${deep.lastPage}: offset/cursor time ×${(offsetLast!.median / cursorLast!.median).toFixed(1)}`);
}

/** Scenario 11 (run after 7, on its fixture): a read rule on every Resource of the include request, against none. */
async function ruleCostScenario(): Promise<void> {
  say(`\n11. Row rules: ${INCLUDE_QUERY} with a read rule ({ id: { gte: fromContext(...) } }) on every Resource it reads, against no rule, 1,000 employees, SQLite, in-process`);
  const contenders = await ruleCostContenders(fixture);
  try {
    const timing = await alternate({ plain: contenders.plain, ruled: contenders.ruled }, 9, 20);
    say(`   with rules ${ms(timing.ruled!.median)}, without ${ms(timing.plain!.median)}; throughput with/without ${target('scenario 11 rules/no rules', medianRatio(timing.plain!.rounds, timing.ruled!.rounds), 0.95, true)}`);
  } finally {
    contenders.restore();
  }
}

/** Scenarios 9 and 10. */
async function throughputScenarios(): Promise<void> {
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
}

/** The rows a hand-written loop would render (scenario 3), read once from the SQLite file. */
function collectRows(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    const all = (sql: string) => db.prepare<[], Record<string, unknown>>(sql).all();
    const employees = all('SELECT id, first_name, last_name, age, created_at, updated_at FROM employees ORDER BY last_name ASC, id ASC LIMIT 10000');
    const positions = all('SELECT id, title, active, rank, employee_id, department_id FROM positions ORDER BY id');
    const teamRows = all('SELECT t.id, t.name, t.department_id, et.employee_id FROM teams t JOIN employee_teams et ON et.team_id = t.id ORDER BY t.id');
    const departments = all('SELECT id, name FROM departments ORDER BY id');
    return {
      employees, positions, departments, total: employees.length, size: 10_000,
      teamLinks: teamRows.map((row) => ({ team: { id: row.id, name: row.name, department_id: row.department_id }, employee_id: row.employee_id })),
    };
  } finally {
    db.close();
  }
}

/** The Node flags this run has (`npm run bench` gives it `npm start`'s), as the header states them. */
function nodeFlags(): string {
  const flags = process.execArgv.filter((flag) => flag !== '--expose-gc');
  return flags.length > 0 ? ` ${flags.join(' ')}` : '';
}
