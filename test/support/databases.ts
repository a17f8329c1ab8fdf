import { Sequelize, type Options } from 'sequelize';

export interface TestDatabase {
  name: 'sqlite' | 'postgres' | 'mysql';
  url: string;
}

/**
 * The databases a suite runs on: SQLite always, PostgreSQL and MariaDB/MySQL
 * when MURAL_TEST_POSTGRES / MURAL_TEST_MYSQL hold connection URLs.
 */
export function testDatabases(): TestDatabase[] {
  const list: TestDatabase[] = [{ name: 'sqlite', url: ':memory:' }];
  if (process.env.MURAL_TEST_POSTGRES) list.push({ name: 'postgres', url: process.env.MURAL_TEST_POSTGRES });
  if (process.env.MURAL_TEST_MYSQL) list.push({ name: 'mysql', url: process.env.MURAL_TEST_MYSQL });
  return list;
}

/**
 * Connects to `db`, isolated under `key`: ava runs test files in parallel
 * processes against one server, so each file gets its own PostgreSQL schema
 * or MySQL database, created empty.
 */
export async function openDatabase(db: TestDatabase, key: string, options: Options = {}): Promise<Sequelize> {
  const logging = options.logging ?? false;
  if (db.name === 'sqlite') return new Sequelize({ dialect: 'sqlite', storage: ':memory:', ...options, logging });
  const isolated = `mural_${key.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}`;
  await retry(() => recreate(db, isolated));
  if (db.name === 'postgres') {
    return new Sequelize(db.url, {
      ...options,
      logging,
      dialectOptions: { options: `-c search_path=${isolated}` },
      hooks: { afterConnect: async (connection) => void (await (connection as { query(sql: string): Promise<unknown> }).query(`SET search_path TO "${isolated}"`)) },
    });
  }
  const url = new URL(db.url);
  url.pathname = `/${isolated}`;
  return new Sequelize(url.toString(), { ...options, logging });
}

async function recreate(db: TestDatabase, isolated: string): Promise<void> {
  const admin = new Sequelize(db.url, { logging: false });
  try {
    if (db.name === 'postgres') {
      await admin.query(`DROP SCHEMA IF EXISTS "${isolated}" CASCADE`);
      await admin.query(`CREATE SCHEMA "${isolated}"`);
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
