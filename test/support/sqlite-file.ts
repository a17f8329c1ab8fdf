import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
