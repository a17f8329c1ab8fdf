import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface LoadResult {
  requestsPerSecond: number;
  /** Milliseconds. */
  p99: number;
}

export interface RoundResult extends LoadResult {
  requests: number;
  /** CPU time this process spent (every thread: the servers, SQLite's thread pool) per request, in ms. */
  cpuMsPerRequest: number;
}

/**
 * The load generator: wrk when it is on the PATH (a C program, a process of
 * its own, so the servers keep this process's CPU to themselves), else
 * autocannon run by Node in a child process. MURAL_BENCH_LOAD=autocannon
 * forces autocannon.
 */
export const LOAD_GENERATOR: 'wrk' | 'autocannon' = process.env.MURAL_BENCH_LOAD !== 'autocannon' && onPath('wrk') ? 'wrk' : 'autocannon';

function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

const WRK_SCRIPT = fileURLToPath(new URL('./wrk-report.lua', import.meta.url));

/** Loads `url` with `connections` keep-alive connections for `seconds`. */
export async function loadUrl(url: string, connections: number, seconds: number): Promise<LoadResult & { requests: number }> {
  return LOAD_GENERATOR === 'wrk' ? wrk(url, connections, seconds) : autocannon(url, connections, seconds);
}

async function wrk(url: string, connections: number, seconds: number) {
  // wrk wants no more threads than connections; 2 threads drive 16 connections on these 2 cores
  const threads = Math.min(2, connections);
  const { stdout } = await run('wrk', [`-t${threads}`, `-c${connections}`, `-d${seconds}s`, '-s', WRK_SCRIPT, url]);
  const line = stdout.split('\n').find((l) => l.startsWith('WRK_REPORT '));
  if (!line) throw new Error(`wrk printed no report for ${url}:\n${stdout}`);
  const report = JSON.parse(line.slice('WRK_REPORT '.length)) as { requests: number; duration_us: number; p99_us: number; socket_errors: number; non2xx: number };
  if (report.socket_errors > 0 || report.non2xx > 0) throw new Error(`${url}: ${report.non2xx} non-2xx answers, ${report.socket_errors} socket errors`);
  return { requests: report.requests, requestsPerSecond: report.requests / (report.duration_us / 1e6), p99: report.p99_us / 1000 };
}

// in a child process: in this one it would take the servers' event loop and CPU
async function autocannon(url: string, connections: number, seconds: number) {
  const cli = createRequire(import.meta.url).resolve('autocannon');
  const { stdout } = await run(process.execPath, [cli, '--json', '-c', String(connections), '-d', String(seconds), url], { maxBuffer: 16 * 1024 * 1024 });
  const result = JSON.parse(stdout) as { requests: { average: number; total: number }; latency: { p99: number }; non2xx: number; errors: number };
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { requests: result.requests.total, requestsPerSecond: result.requests.average, p99: result.latency.p99 };
}

/** One load of `url`, with the CPU time this process spent meanwhile. */
export async function loadRound(url: string, connections: number, seconds: number): Promise<RoundResult> {
  const before = process.cpuUsage();
  const result = await loadUrl(url, connections, seconds);
  const { user, system } = process.cpuUsage(before);
  return { ...result, cpuMsPerRequest: (user + system) / 1000 / Math.max(1, result.requests) };
}

/**
 * Loads each server in turn, round after round, in alternating order (ABC,
 * CBA, …), `seconds` each, so that machine noise falls on all of them alike
 * (as `alternate` in measure.ts does in-process); every round's figures.
 * `baseUrls` maps a contender's name to its server.
 */
export async function alternateLoad(baseUrls: Record<string, string>, path: string, connections: number, rounds: number, seconds: number) {
  const runs: Record<string, { rps: number[]; p99: number[]; cpu: number[] }> = Object.fromEntries(Object.keys(baseUrls).map((name) => [name, { rps: [], p99: [], cpu: [] }]));
  for (let round = 0; round < rounds; round++) {
    const names = round % 2 === 0 ? Object.keys(baseUrls) : Object.keys(baseUrls).reverse();
    for (const name of names) {
      const result = await loadRound(`${baseUrls[name]}${path}`, connections, seconds);
      runs[name]!.rps.push(result.requestsPerSecond);
      runs[name]!.p99.push(result.p99);
      runs[name]!.cpu.push(result.cpuMsPerRequest);
    }
  }
  return runs;
}
