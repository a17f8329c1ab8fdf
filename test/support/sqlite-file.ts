import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import type { TestDatabase } from './databases.ts';

export interface SqliteFileDatabase extends TestDatabase {
  /** The database file. */
  path: string;
  /** Deletes the file and its folder (WAL and shared-memory files included). */
  remove(): void;
}

/**
 * A SQLite database in a file of a fresh temporary folder: unlike the
 * in-memory one, Sequelize opens a connection per transaction on it, as in
 * production (`npm start`).
 */
export function sqliteFileDatabase(): SqliteFileDatabase {
  const folder = mkdtempSync(join(tmpdir(), 'mural-sqlite-'));
  const path = join(folder, 'directory.db');
  return { name: 'sqlite', url: `sqlite:${path}`, path, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/** Another connection to the same file, as another process would hold it. */
export async function rawConnection(path: string) {
  const db = new sqlite3.Database(path);
  const run = (sql: string) => new Promise<void>((resolve, reject) => db.run(sql, (error) => (error ? reject(error) : resolve())));
  const all = (sql: string) => new Promise<unknown[]>((resolve, reject) => db.all(sql, (error, rows) => (error ? reject(error) : resolve(rows))));
  const close = () => new Promise<void>((resolve) => db.close(() => resolve()));
  return { run, all, close };
}

/** Holds SQLite's write lock (BEGIN IMMEDIATE) until released. */
export async function holdWriteLock(path: string) {
  const connection = await rawConnection(path);
  await connection.run('BEGIN IMMEDIATE');
  return async () => {
    await connection.run('ROLLBACK');
    await connection.close();
  };
}
