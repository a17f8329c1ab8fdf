import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Sequelize, type Options } from 'sequelize';
import { configureSqlite } from 'mural/sequelize';
import { checkServerUrl, DatabaseUrlError, redacted } from './database-url.ts';

const DEFAULT_FILE = resolve(dirname(fileURLToPath(import.meta.url)), '../../../.data/employee-directory.db');

/**
 * Opens the directory's database. `url` is Sequelize's URL form
 * (`sqlite:/abs/path.db`, `postgres://…`, `mysql://…`); absent, a SQLite file
 * in `.data/`; `':memory:'`, an in-memory SQLite database.
 */
export function connect(url?: string, options: { logging?: (sql: string) => void } = {}): Sequelize {
  const sequelize = open(url, options.logging ?? false);
  // WAL and the busy timeout from the first query on (a no-op on other databases)
  configureSqlite(sequelize);
  return sequelize;
}

function open(url: string | undefined, logging: false | ((sql: string) => void)): Sequelize {
  if (url === ':memory:') return new Sequelize({ dialect: 'sqlite', storage: ':memory:', logging });
  if (!url) {
    return usable(url, () => {
      mkdirSync(dirname(DEFAULT_FILE), { recursive: true });
      return new Sequelize({ dialect: 'sqlite', storage: DEFAULT_FILE, logging });
    });
  }
  if (url.startsWith('sqlite:')) {
    const storage = url.replace(/^sqlite:(\/\/)?/, '');
    return usable(url, () => {
      if (storage !== ':memory:') mkdirSync(dirname(resolve(storage)), { recursive: true });
      return new Sequelize({ dialect: 'sqlite', storage, logging });
    });
  }
  checkServerUrl(url);
  const replicas = replication(process.env.DATABASE_REPLICA_URLS);
  // Sequelize takes a `replication` key, even undefined, for replicas
  const options = { logging, pool: { max: poolMax() }, ...(replicas && { replication: replicas }) };
  return usable(url, () => new Sequelize(url, options));
}

/** What Sequelize (or the file system) refuses of a DATABASE_URL (a driver not installed, a folder that cannot be made) fails naming it. */
function usable(url: string | undefined, make: () => Sequelize): Sequelize {
  try {
    return make();
  } catch (error) {
    const what = url ? `DATABASE_URL ${redacted(url)}` : `The default SQLite file ${DEFAULT_FILE} (DATABASE_URL is unset)`;
    throw new DatabaseUrlError(`${what} cannot be used: ${(error as Error).message}`);
  }
}

/** Connections each process may hold per pool (DATABASE_POOL_MAX, default Sequelize's 5). */
function poolMax(): number {
  const max = Number(process.env.DATABASE_POOL_MAX ?? 5);
  if (!Number.isInteger(max) || max < 1) throw new Error(`DATABASE_POOL_MAX must be a positive whole number; got ${process.env.DATABASE_POOL_MAX}`);
  return max;
}

/**
 * DATABASE_REPLICA_URLS, comma-separated: read replicas of DATABASE_URL. Reads
 * outside a write go to them; writes, and what a write's response reads, to
 * DATABASE_URL. Unset: no `replication`, one pool.
 */
function replication(urls: string | undefined): Options['replication'] {
  const replicas = (urls ?? '').split(',').map((u) => u.trim()).filter(Boolean);
  if (replicas.length === 0) return undefined;
  const read = replicas.map((replica) => {
    const parsed = new URL(replica);
    return {
      host: parsed.hostname, port: parsed.port ? Number(parsed.port) : undefined,
      username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
      password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
      database: parsed.pathname.length > 1 ? decodeURIComponent(parsed.pathname.slice(1)) : undefined,
    };
  });
  return { read, write: {} };
}
