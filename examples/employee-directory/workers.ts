import cluster, { type Worker } from 'node:cluster';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';

/** Restarts of a crashing worker wait 100 ms, then twice as long each time, up to this. */
const MAX_BACKOFF = 30_000;
/** A worker that ran this long counts as healthy: the next crash starts the backoff over. */
const STABLE_AFTER = 10_000;
const MAX_WORKERS = 64;

/**
 * How many processes serve the API: `MURAL_WORKERS` (default 1; `auto`: one
 * per core). More than 64, or anything else, is refused before anything starts.
 */
export function workerCount(value = process.env.MURAL_WORKERS): number {
  if (value === undefined || value === '') return 1;
  if (value === 'auto') return Math.min(availableParallelism(), MAX_WORKERS);
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1 || count > MAX_WORKERS) {
    throw new Error(`MURAL_WORKERS must be a whole number from 1 to ${MAX_WORKERS}, or auto; got ${JSON.stringify(value)}`);
  }
  return count;
}

export interface SupervisorOptions {
  workers: number;
  /** What every worker is told, besides the environment of the primary. */
  env: Record<string, string>;
  /** Printed once, with the port, when the first worker listens. */
  listening: (port: number) => void;
}

/**
 * The primary of `node:cluster`: forks `workers` copies of this script, which
 * share one listening socket (the primary hands connections out in turn),
 * restarts a worker that dies with a growing backoff, and on SIGTERM or
 * SIGINT sends the workers SIGTERM, lets every worker drain (each runs
 * `gracefulShutdown`), and exits 0 once all have (1 if one failed). A second
 * signal sends another SIGTERM: workers then cut what is still open.
 *
 * Workers keep no state between requests that another worker would lack:
 * the cursor secret is the one thing they must share, so when
 * MURAL_CURSOR_SECRET is unset the primary makes one for all of them.
 */
export function supervise(options: SupervisorOptions): void {
  const env: Record<string, string> = { ...options.env, MURAL_CURSOR_SECRET: process.env.MURAL_CURSOR_SECRET || randomBytes(32).toString('base64url') };
  let stopping = false;
  let failed = false;
  let crashes = 0;
  let announced = false;
  const started = new Map<Worker, number>();
  const fork = () => started.set(cluster.fork(env), Date.now());
  cluster.on('listening', (_worker, address: AddressInfo | { port: number }) => {
    if (announced) return;
    announced = true;
    // PORT=0 picks a free port once: a worker started after every listening one died must not pick another
    env.PORT = String(address.port);
    options.listening(address.port);
  });
  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (started.get(worker) ?? 0);
    started.delete(worker);
    if (stopping) {
      // ended by the SIGTERM itself: a worker still starting, with no server to drain yet
      if (code !== 0 && signal !== 'SIGTERM') {
        failed = true;
        console.error(`worker ${worker.process.pid} did not shut down cleanly (${signal ?? `code ${code}`})`);
      }
      if (started.size === 0) process.exit(failed ? 1 : 0);
      return;
    }
    crashes = lived >= STABLE_AFTER ? 1 : crashes + 1;
    const delay = Math.min(MAX_BACKOFF, 100 * 2 ** (crashes - 1));
    console.error(`worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another in ${delay} ms`);
    // a timer that holds the process open: with every worker gone it is all the primary waits on, and unref'd the primary would exit
    setTimeout(() => stopping || fork(), delay);
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      stopping = true;
      if (started.size === 0) process.exit(0);
      // SIGTERM whatever came: a terminal's Ctrl-C reaches the workers too, and a second SIGINT would tell them to cut requests
      for (const worker of started.keys()) worker.process.kill('SIGTERM');
    });
  }
  for (let i = 0; i < options.workers; i++) fork();
}
