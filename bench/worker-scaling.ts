import autocannon from 'autocannon';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createApp } from '../examples/employee-directory/app.ts';
import { connect } from '../examples/employee-directory/db/connection.ts';
import { seed } from '../examples/employee-directory/db/seed.ts';
import { spawnDirectoryServer, type ChildServer } from '../test/support/child-server.ts';
import { freshPostgres } from './fixtures.ts';
import { INCLUDE_QUERY } from './scenarios.ts';

export interface WorkerThroughput {
  workers: number;
  requestsPerSecond: number;
  p99: number;
}

const PATH = `/api/v1/employees?${INCLUDE_QUERY}`;

/**
 * Scenario 9: the example server as it runs in production (`npm start`, a
 * process of its own, NODE_ENV=production) on PostgreSQL with 1,000
 * employees, with MURAL_WORKERS=1 and MURAL_WORKERS=2, under `connections`
 * concurrent clients. Both servers run throughout and are loaded in turn,
 * `rounds` times each, in alternating order; the best round of each counts. The load generator and
 * PostgreSQL share the machine's cores with the workers.
 */
export async function workerScaling(postgresUrl: string, counts = [1, 2], connections = 16, seconds = 5, rounds = 4): Promise<WorkerThroughput[]> {
  const url = await freshPostgres(postgresUrl, 'mural_bench_workers');
  const sequelize = connect(url);
  const { models } = createApp(sequelize);
  await sequelize.sync({ force: true });
  await seed(models, { employees: 1000 });
  await sequelize.close();
  const servers: ChildServer[] = [];
  try {
    for (const workers of counts) servers.push(await spawnDirectoryServer(url, { MURAL_WORKERS: String(workers), MURAL_CURSOR_SECRET: '' }));
    // every worker warm: JIT, pools, compiled serializers; each connection of the warm-up lands on the next worker
    for (const server of servers) await load(server, connections, 2);
    const best = servers.map(() => ({ requestsPerSecond: 0, p99: Infinity }));
    for (let round = 0; round < rounds; round++) {
      // ABBA: neither server always runs first, right after the other's load
      const order = round % 2 === 0 ? [...servers.keys()] : [...servers.keys()].reverse();
      for (const i of order) {
        const result = await load(servers[i]!, connections, seconds);
        best[i] = { requestsPerSecond: Math.max(best[i]!.requestsPerSecond, result.requestsPerSecond), p99: Math.min(best[i]!.p99, result.p99) };
      }
    }
    return counts.map((workers, i) => ({ workers, ...best[i]! }));
  } finally {
    for (const server of servers) server.child.kill('SIGTERM');
    await Promise.all(servers.map((server) => server.exited));
  }
}

async function load(server: ChildServer, connections: number, seconds: number): Promise<{ requestsPerSecond: number; p99: number }> {
  const result = await autocannon({ url: `${server.baseUrl}${PATH}`, connections, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${PATH}: ${result.non2xx} non-2xx answers, ${result.errors} errors:\n${server.output()}`);
  return { requestsPerSecond: result.requests.average, p99: result.latency.p99 };
}

/** The scenario's lines, as `npm run bench` prints them. */
export function describeScaling(results: readonly WorkerThroughput[]): string[] {
  const one = results.find((r) => r.workers === 1);
  const two = results.find((r) => r.workers === 2);
  const lines = results.map((r) => `   MURAL_WORKERS=${r.workers}: ${r.requestsPerSecond.toFixed(0)} req/s (p99 ${r.p99} ms)`);
  if (one && two) lines.push(`   2 workers / 1: ×${(two.requestsPerSecond / one.requestsPerSecond).toFixed(2)} (no target: the load generator and PostgreSQL share these ${availableParallelism()} cores)`);
  return lines;
}

// `node --import tsx bench/worker-scaling.ts`: this scenario alone
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const postgresUrl = process.env.MURAL_TEST_POSTGRES;
  if (!postgresUrl) throw new Error('set MURAL_TEST_POSTGRES: the worker scaling scenario runs on PostgreSQL');
  console.log(`9. Worker scaling: GET ${PATH} over HTTP, 16 connections, 1,000 employees, PostgreSQL`);
  for (const line of describeScaling(await workerScaling(postgresUrl))) console.log(line);
}
