/**
 * Where a request's CPU time goes: profiles Mural's example app in-process
 * with the inspector while autocannon loads one JSON:API path, writes the
 * `.cpuprofile` and a flame graph, and prints the top self-time functions
 * and the share of CPU per layer (Mural, Sequelize, drivers, express, node).
 *
 *   npm run bench:profile [-- svg-path]
 *   MURAL_TEST_POSTGRES=postgres://... MURAL_PROFILE_SECONDS=5 npm run bench:profile -- docs/flame-graph-postgres.svg
 *   MURAL_PROFILE_PATH='/api/v1/employees?page[size]=100' MURAL_PROFILE_CONNECTIONS=1 npm run bench:profile -- /tmp/page.svg
 */
import type { Result } from 'autocannon';
import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { flameGraphSvg, buildFlameTree, layerTimes, topSelfTimes, LAYERS, type CpuProfile } from './flame-graph.ts';
import { remapToSources } from './flame/source-maps.ts';
import { openFixture, removeFixtureFiles } from './fixtures.ts';

const run = promisify(execFile);
const PATH = process.env.MURAL_PROFILE_PATH ?? '/api/v1/employees?include=positions.department,teams&page[size]=20';
const seconds = Number(process.env.MURAL_PROFILE_SECONDS ?? 5);
const connections = Number(process.env.MURAL_PROFILE_CONNECTIONS ?? 10);
const postgresUrl = process.env.MURAL_TEST_POSTGRES;
const svgPath = process.argv[2] ?? 'docs/flame-graph.svg';

interface LoadSummary {
  requests: number;
  perSecond: number;
  failures: number;
}

// autocannon runs in a child process: in-process it would share the event
// loop with the server and fill the profile with its own CPU, and it cannot
// run in a worker thread of ours (there it takes itself for one of its own
// workers and leaves its results unaggregated).
async function load(url: string, duration: number): Promise<LoadSummary> {
  const cli = createRequire(import.meta.url).resolve('autocannon');
  const args = [cli, '--json', '-c', String(connections), '-d', String(duration), url];
  const { stdout } = await run(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 });
  const result = JSON.parse(stdout) as Result;
  return { requests: result.requests.total, perSecond: result.requests.average, failures: result.non2xx + result.errors };
}

async function profileLoad(url: string): Promise<{ profile: CpuProfile; summary: LoadSummary }> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    // 500 µs rather than V8's 1 ms: twice the samples for a few seconds' run
    await session.post('Profiler.setSamplingInterval', { interval: 500 });
    await session.post('Profiler.start');
    const summary = await load(url, seconds);
    const { profile } = await session.post('Profiler.stop');
    return { profile: remapToSources(profile), summary };
  } finally {
    session.disconnect();
  }
}

const ms = (microseconds: number): string => (microseconds / 1000).toFixed(0).padStart(7);
const share = (part: number, whole: number): string => `${((100 * part) / whole).toFixed(1)}%`.padStart(6);

function report(profile: CpuProfile, summary: LoadSummary, warmUp: LoadSummary, dialect: string): void {
  const cpu = buildFlameTree(profile, { dropIdle: true });
  const wall = buildFlameTree(profile, { dropIdle: false });
  console.log(`\n${dialect}: ${summary.requests} requests in ${seconds} s (${summary.perSecond.toFixed(0)} req/s, ${connections} connections)`);
  // the profiler's cost shows as the gap between the two rates
  console.log(`unprofiled warm-up: ${warmUp.perSecond.toFixed(0)} req/s over 1 s`);
  console.log(`non-idle CPU on the main thread: ${ms(cpu.total).trim()} ms of ${ms(wall.total).trim()} ms sampled (${share(cpu.total, wall.total).trim()}),` +
    ` ${(cpu.total / summary.requests).toFixed(0)} µs per request`);
  console.log('\nper layer (self time, share of non-idle CPU; V8 builtins count for their caller):');
  const times = layerTimes(cpu);
  for (const layer of LAYERS) console.log(`  ${layer.padEnd(20)} ${ms(times.get(layer)!)} ms ${share(times.get(layer)!, cpu.total)}`);
  console.log('\ntop 15 functions by self time:');
  for (const { label, self } of topSelfTimes(cpu, 15)) console.log(`  ${ms(self)} ms ${share(self, cpu.total)}  ${label}`);
}

const fixture = await openFixture(1000, postgresUrl, 'mural_profile_1000');
const server = fixture.app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
try {
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${PATH}`;
  const warmUp = await load(url, 1);
  const { profile, summary } = await profileLoad(url);
  if (warmUp.failures + summary.failures > 0) throw new Error(`${PATH}: ${warmUp.failures + summary.failures} failed requests`);
  const dialect = fixture.dialect;
  mkdirSync('test-artifacts', { recursive: true });
  const profilePath = join('test-artifacts', `profile-request-${dialect}.cpuprofile`);
  writeFileSync(profilePath, JSON.stringify(profile));
  const title = `GET ${PATH} on ${dialect}, ${connections} connections, ${seconds} s (idle dropped)`;
  mkdirSync(dirname(svgPath), { recursive: true });
  writeFileSync(svgPath, flameGraphSvg(profile, { title }));
  report(profile, summary, warmUp, dialect);
  console.log(`\nwrote ${profilePath} and ${svgPath}`);
} finally {
  await new Promise((resolve) => server.close(resolve));
  await fixture.sequelize.close();
  removeFixtureFiles();
}
