import { alternateLoad, LOAD_GENERATOR, loadUrl } from './http-load.ts';
import { allocatedPerCall, alternate, median, medianRatio } from './measure.ts';
import { CONTENDER_LABELS, checkSameBodies, inProcessContenders, openDriverBaselines, startReadServers, type DriverBaselines, type ReadServers } from './read-contenders.ts';
import type { Fixture } from './fixtures.ts';
import { networkHopScenario } from './network-hop.ts';
import { ms, TARGET_A, TARGET_B, type Report } from './report.ts';
import { READ_REQUESTS } from './scenarios.ts';

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
/**
 * Seconds of each server's turn (MURAL_BENCH_SECONDS overrides). One: with
 * two requests and up to four servers a round, two would double the
 * scenario's minutes; each server has had a second of each request before
 * the first round, and the median of the rounds absorbs a noisy turn.
 */
const secondsFor = () => Number(process.env.MURAL_BENCH_SECONDS ?? 1);
/** In-process rounds and operations per round (scenario 2). */
const IN_PROCESS_ROUNDS = 15;
const PER_ROUND = 10;

const LETTER: Record<string, string> = { sequelize: '(a)', driver: '(b)', better: '(c)', framed: '(d)' };

/** Scenarios 1 (over HTTP) and 2 (in-process) on one database, both requests, after checking every contender's bytes. */
export async function readScenarios(report: Report, database: string, fixture: Fixture): Promise<void> {
  const baselines = await openDriverBaselines(fixture.target);
  const servers = await startReadServers(fixture, baselines);
  try {
    for (const request of READ_REQUESTS) await checkSameBodies(servers, inProcessContenders(fixture, baselines, request), request);
    await httpScenario(report, database, servers);
    await inProcessScenario(report, database, fixture, baselines);
  } finally {
    await servers.close();
    await baselines.close();
  }
  if (database === 'PostgreSQL') await networkHopScenario(report, fixture);
}

async function httpScenario(report: Report, database: string, servers: ReadServers): Promise<void> {
  const names = Object.keys(servers.baseUrls);
  report.say(`\n1. Over HTTP, 1,000 employees, ${database}: ${names.map((name) => CONTENDER_LABELS[name]).join(', ')}; every body checked byte for byte against Mural's first. Load by ${LOAD_GENERATOR}, a process of its own; CPU: this process's, per request (${database === 'SQLite' ? 'SQLite\'s threads included' : 'PostgreSQL\'s own not counted'})`);
  // steady state, as in-process: a second of each request for each server before any is timed
  for (const request of READ_REQUESTS) for (const url of Object.values(servers.baseUrls)) await loadUrl(`${url}${request.path}`, 1, 1);
  const rounds = roundsFor();
  const seconds = secondsFor();
  for (const request of READ_REQUESTS) {
    report.say(`   GET ${request.path}`);
    for (const connections of [1, 16]) {
      const runs = await alternateLoad(servers.baseUrls, request.path, connections, rounds, seconds);
      const figures = names.map((name) => `${name === 'mural' ? 'Mural' : LETTER[name]} ${median(runs[name]!.rps).toFixed(0)} req/s (p99 ${median(runs[name]!.p99).toFixed(1)} ms, CPU ${median(runs[name]!.cpu).toFixed(2)} ms)`);
      report.say(`   ${connections} connection(s), median of ${rounds} rounds of ${seconds} s: ${figures.join(', ')}`);
      const label = `${database} scenario 1 (${request.label}), ${connections} connection(s)`;
      const ratio = (name: string) => medianRatio(runs.mural!.rps, runs[name]!.rps);
      report.say(`     ${ratios(report, label, ratio, names)}`);
    }
  }
}

async function inProcessScenario(report: Report, database: string, fixture: Fixture, baselines: DriverBaselines): Promise<void> {
  report.say(`\n2. The same bodies built in-process (the text each would send), ${database}`);
  for (const request of READ_REQUESTS) {
    const timing = await alternate(inProcessContenders(fixture, baselines, request), IN_PROCESS_ROUNDS, PER_ROUND);
    const names = Object.keys(timing);
    const figures = names.map((name) => `${name === 'mural' ? 'Mural' : LETTER[name]} ${ms(timing[name]!.median)}`);
    report.say(`   ${request.label}: ${figures.join(', ')} (medians of ${IN_PROCESS_ROUNDS} rounds)`);
    const ratio = (name: string) => medianRatio(timing[name]!.rounds, timing.mural!.rounds);
    report.say(`     throughput ${ratios(report, `${database} scenario 2 (${request.label})`, ratio, names)}`);
    const contenders = inProcessContenders(fixture, baselines, request);
    const allocated: string[] = [];
    for (const name of names) allocated.push(`${name === 'mural' ? 'Mural' : LETTER[name]} ${((await allocatedPerCall(contenders[name]!)) / 1024).toFixed(0)} KB`);
    report.say(`     allocated per request (V8's heap, garbage included; sampled): ${allocated.join(', ')} (no target)`);
  }
}

/** Mural/(a) and Mural/(b) against their targets, Mural/(c) and Mural/(d) without one. */
function ratios(report: Report, label: string, ratio: (name: string) => number, names: string[]): string {
  const parts = [
    `Mural/(a) ${report.target(`${label} Mural/(a)`, ratio('sequelize'), TARGET_A, true)}`,
    `Mural/(b) ${report.target(`${label} Mural/(b)`, ratio('driver'), TARGET_B, true)}`,
  ];
  if (names.includes('better')) parts.push(`Mural/(c) ${ratio('better').toFixed(2)} (no target)`);
  if (names.includes('framed')) parts.push(`Mural/(d) ${ratio('framed').toFixed(2)} (no target)`);
  return parts.join('; ');
}
