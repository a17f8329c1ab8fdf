import { Sequelize, type Options } from 'sequelize';

export interface TestDatabase {
  name: 'sqlite' | 'postgres' | 'mysql';
  /** A Sequelize URL, or `':memory:'` for SQLite (`sqlite:/abs/path.db` for a file). */
  url: string;
  /** The isolation key `openDatabase` uses when it is given none. */
  schemaKey?: string;
}

/**
 * The databases a suite runs on: SQLite always, PostgreSQL and MariaDB/MySQL
 * when MURAL_TEST_POSTGRES / MURAL_TEST_MYSQL hold connection URLs.
 *
 * ava runs test files in parallel processes that share one server, so each file
 * isolates itself under a key of its own:
 *
 *   for (const db of testDatabases('my_suite')) {
 *     test.before(async () => { sequelize = await openDatabase(db); });
 *   }
 *
 * (or `openDatabase(db, 'my_suite')`). On either server the key names a database
 * `mural_<key>`, dropped and created empty on open; the URL's own database only
 * serves to issue those statements.
 */
export function testDatabases(schemaKey?: string): TestDatabase[] {
  const list: TestDatabase[] = [{ name: 'sqlite', url: ':memory:' }];
  if (process.env.MURAL_TEST_POSTGRES) list.push({ name: 'postgres', url: process.env.MURAL_TEST_POSTGRES });
  if (process.env.MURAL_TEST_MYSQL) list.push({ name: 'mysql', url: process.env.MURAL_TEST_MYSQL });
  return schemaKey === undefined ? list : list.map((db) => ({ ...db, schemaKey }));
}

/**
 * Connects to `db`, isolated under `key` (default `db.schemaKey`): SQLite gets a
 * fresh in-memory database, PostgreSQL and MySQL an empty database `mural_<key>`.
 *
 * PostgreSQL gets a database rather than a schema on the search path because
 * Sequelize's `sync` looks indexes up by bare table name across every schema:
 * with schemas, one file's `sync` reads (or trips over, mid-drop) another's
 * tables of the same name.
 */
export async function openDatabase(db: TestDatabase, key = db.schemaKey, options: Options = {}): Promise<Sequelize> {
  const logging = options.logging ?? false;
  if (db.name === 'sqlite') return new Sequelize({ dialect: 'sqlite', storage: db.url.replace(/^sqlite:/, ''), ...options, logging });
  if (!key) throw new Error(`openDatabase(${db.name}): give a key (or testDatabases(key)) so parallel test files do not share tables`);
  // MURAL_TEST_DB_PREFIX keeps checkouts that test side by side on one server apart
  const prefix = process.env.MURAL_TEST_DB_PREFIX ?? '';
  const isolated = `mural_${(prefix + key).replace(/[^a-z0-9_]/gi, '_').toLowerCase()}`;
  await retry(() => recreate(db, isolated));
  const url = new URL(db.url);
  url.pathname = `/${isolated}`;
  return new Sequelize(url.toString(), { ...options, logging });
}

async function recreate(db: TestDatabase, isolated: string): Promise<void> {
  const admin = new Sequelize(db.url, { logging: false });
  try {
    if (db.name === 'postgres') {
      // FORCE (PostgreSQL 13+) ends connections a crashed earlier run left open
      await admin.query(`DROP DATABASE IF EXISTS "${isolated}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${isolated}"`);
    } else {
      await admin.query(`DROP DATABASE IF EXISTS \`${isolated}\``);
      await admin.query(`CREATE DATABASE \`${isolated}\``);
    }
  } finally {
    await admin.close();
  }
}

/** Catalog changes from parallel test processes can collide (deadlocks, concurrent updates); try again. */
async function retry(fn: () => Promise<void>, attempts = 4): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}
