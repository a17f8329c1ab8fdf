import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshPostgres } from './fixtures.ts';
import { LatencyHistogram } from './latency-histogram.ts';
import { soakCycle, type Tally } from './soak-cycle.ts';
import { PRODUCTION_SERVER_ENV, serverArguments } from '../scripts/server-node-flags.ts';

/*
 * `npm run soak`: the example server as a process, under SOAK_SECONDS (60) of
 * mixed reads and writes from SOAK_CONNECTIONS (16) clients, on a SQLite file
 * and, with MURAL_TEST_POSTGRES, on PostgreSQL. Prints requests, errors, p99
 * and the server's RSS at start and end; ends with a SIGTERM the server must
 * answer by exiting 0. Exits 1 on any error.
 */
const seconds = Number(process.env.SOAK_SECONDS ?? 60);
const connections = Number(process.env.SOAK_CONNECTIONS ?? 16);
const folder = mkdtempSync(join(tmpdir(), 'mural-soak-'));
let failed = false;
try {
  failed = !(await soak('SQLite', `sqlite:${join(folder, 'soak.db')}`)) || failed;
  const postgres = process.env.MURAL_TEST_POSTGRES;
  if (postgres) failed = !(await soak('PostgreSQL', await freshPostgres(postgres, 'mural_soak'))) || failed;
} finally {
  rmSync(folder, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

async function soak(database: string, url: string): Promise<boolean> {
  console.log(`\n${database}: ${seconds} s, ${connections} connections, mixed reads and writes`);
  const server = await startServer(url);
  const rssStart = rssOf(server.child.pid!);
  const tally: Tally = { requests: 0, errors: new Map(), latency: new LatencyHistogram() };
  const until = Date.now() + seconds * 1000;
  const loops = Array.from({ length: connections }, async (_, n) => {
    for (let cycle = 0; Date.now() < until; cycle++) await soakCycle(server.baseUrl, `${n}-${cycle}`, tally);
  });
  await Promise.all(loops);
  const rssEnd = rssOf(server.child.pid!);
  server.child.kill('SIGTERM');
  const exit = await server.exited;
  const errorCount = [...tally.errors.values()].reduce((sum, e) => sum + e.count, 0);
  console.log(`  requests ${tally.requests} (${(tally.requests / seconds).toFixed(0)}/s), errors ${errorCount} (target 0)`);
  console.log(`  latency p50 ${tally.latency.percentile(50).toFixed(1)} ms, p99 ${tally.latency.percentile(99).toFixed(1)} ms, max ${tally.latency.max.toFixed(1)} ms`);
  console.log(`  server RSS ${mb(rssStart)} at start, ${mb(rssEnd)} at end`);
  console.log(`  SIGTERM: exit code ${exit}${exit === 0 ? '' : ' (expected 0)'}`);
  for (const [kind, { count, sample }] of tally.errors) console.log(`  ${count} × ${kind}: ${sample}`);
  return errorCount === 0 && exit === 0;
}

interface Server {
  child: ChildProcess;
  baseUrl: string;
  exited: Promise<number | null>;
}

async function startServer(url: string): Promise<Server> {
  const script = new URL('../examples/employee-directory/server.ts', import.meta.url).pathname;
  const child = spawn(process.execPath, serverArguments(script), {
    env: { ...process.env, DATABASE_URL: url, PORT: '0', ...PRODUCTION_SERVER_ENV },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /localhost:(\d+)\//.exec(output);
      if (match) resolve(Number(match[1]));
    });
    void exited.then((code) => reject(new Error(`the server exited (${code}) before listening: ${output}`)));
  });
  return { child, baseUrl: `http://127.0.0.1:${port}`, exited };
}

/** Resident set size of a process in bytes, as `ps` reports it (Linux and macOS). */
function rssOf(pid: number): number {
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)]).toString().trim()) * 1024;
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
