import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Sequelize, type Options } from 'sequelize';
import { openDatabase } from './databases.ts';

const run = promisify(execFile);

/**
 * A hot standby of MURAL_TEST_POSTGRES's server, streaming from it
 * (`scripts/ci/pg-standby.sh` makes one on port 5433): the read-replica
 * suites run only when MURAL_TEST_POSTGRES_REPLICA holds its URL.
 */
export function replicaUrl(): string | undefined {
  return process.env.MURAL_TEST_POSTGRES ? process.env.MURAL_TEST_POSTGRES_REPLICA : undefined;
}

/** One statement a connection ran, and the port of the server it was connected to. */
export interface LoggedQuery {
  port: number;
  sql: string;
}

export interface ReplicatedDatabase {
  /** Connected with Sequelize's `replication`: the primary writes, the standby reads. */
  sequelize: Sequelize;
  /** The same database, on the primary alone: to set up data without going through the app. */
  primary: Sequelize;
  /** The same database, on the standby alone. */
  replica: Sequelize;
  primaryPort: number;
  replicaPort: number;
  /** Every statement the app's connections ran, with their server's port, since the last reset. */
  queries: LoggedQuery[];
  /** Resolves once the standby has replayed everything the primary has written so far. */
  caughtUp(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens database `mural_<key>` (made empty on the primary, so on the standby
 * too) three ways: replicated, primary only and standby only. Each
 * connection of the replicated instance logs its statements with the port
 * it is connected to: the server, not Mural, says where a query ran.
 */
export async function openReplicated(key: string, options: Options = {}): Promise<ReplicatedDatabase> {
  const primary = await openDatabase({ name: 'postgres', url: process.env.MURAL_TEST_POSTGRES! }, key);
  const { database, username, host, port } = primary.config;
  const standby = new URL(replicaUrl()!);
  const replicaPort = Number(standby.port || 5432);
  // the standby's own database answers the polls: the new one exists there only once replayed
  const standbyAdmin = new Sequelize(standby.toString(), { logging: false });
  const caughtUp = () => replayed(primary, standbyAdmin);
  await caughtUp();
  const replica = new Sequelize(database, username, undefined, { dialect: 'postgres', host: standby.hostname, port: replicaPort, logging: false });
  const sequelize = new Sequelize(database, username, undefined, {
    dialect: 'postgres',
    logging: false,
    ...options,
    replication: { write: { host, port: Number(port) }, read: [{ host: standby.hostname, port: replicaPort }] },
  });
  const queries: LoggedQuery[] = [];
  sequelize.addHook('afterConnect', (connection, config) => {
    const client = connection as { query: (...args: unknown[]) => unknown };
    const query = client.query.bind(client);
    const serverPort = Number((config as { port?: number | string }).port);
    client.query = (...args: unknown[]) => {
      const sql = typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string }).text);
      // a batch of SELECTs (statement-batch.ts) is one round trip of several statements: log each
      for (const statement of sql.split(/;\n(?=SELECT)/)) queries.push({ port: serverPort, sql: statement });
      return query(...args);
    };
  });
  return {
    sequelize, primary, replica, primaryPort: Number(port), replicaPort, queries, caughtUp,
    close: async () => {
      await Promise.all([sequelize.close(), primary.close(), replica.close(), standbyAdmin.close()]);
    },
  };
}

/** Polls the standby until its replay position reaches the primary's current WAL position. */
async function replayed(primary: Sequelize, replica: Sequelize, timeout = 30_000): Promise<void> {
  const [[{ lsn }]] = (await primary.query('SELECT pg_current_wal_lsn()::text AS lsn')) as [[{ lsn: string }], unknown];
  const until = Date.now() + timeout;
  for (;;) {
    const [[row]] = (await replica.query(`SELECT pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn AS done`)) as [[{ done: boolean }], unknown];
    if (row?.done) return;
    if (Date.now() > until) throw new Error(`the standby has not replayed ${lsn} after ${timeout} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The Debian cluster (`15 replica`) listening on the standby's port, for pg_ctlcluster. */
async function standbyCluster(port: number): Promise<[string, string]> {
  const { stdout } = await run('pg_lsclusters', ['-h']);
  const line = stdout.split('\n').map((l) => l.trim().split(/\s+/)).find((fields) => fields[2] === String(port));
  if (!line) throw new Error(`no PostgreSQL cluster listens on port ${port}`);
  return [line[0]!, line[1]!];
}

/** Stops the standby server (fast shutdown: its connections are cut) and waits until it is down. */
export async function stopStandby(port: number): Promise<void> {
  await run('pg_ctlcluster', ['--skip-systemctl-redirect', ...(await standbyCluster(port)), 'stop', '-m', 'fast']);
}

/** Starts the standby again, unless it runs, and waits until it accepts connections. */
export async function startStandby(port: number): Promise<void> {
  await run('pg_ctlcluster', ['--skip-systemctl-redirect', ...(await standbyCluster(port)), 'start']).catch((error: { stderr?: string }) => {
    if (!String(error.stderr).includes('already running')) throw error;
  });
  for (let attempt = 0; attempt < 120; attempt++) {
    const { stdout } = await run('pg_isready', ['-h', '127.0.0.1', '-p', String(port)]).catch(() => ({ stdout: '' }));
    if (stdout.includes('accepting connections')) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the standby on port ${port} did not come back`);
}
