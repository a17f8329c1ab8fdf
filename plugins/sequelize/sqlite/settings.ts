import type { Sequelize } from 'sequelize';
import { connectionManager, prepareConnections } from './connections.ts';
import { WriteQueue } from '../write-queue.ts';
import { keepWriters } from './writer.ts';

/** How Mural shares one SQLite database between concurrent writes. */
export interface SqliteSettings {
  /** Milliseconds a write waits for this process's earlier writes before a 503. Default 10 000. */
  writeQueueTimeout: number;
  /** Writes that may wait at once; the next one gets a 503 at once. Default 1000. */
  writeQueueLength: number;
  /**
   * Milliseconds a connection waits for a lock another process (or a write
   * made outside Mural) holds on the file, SQLite's `busy_timeout`, before a
   * 503. Default 5000.
   */
  busyTimeout: number;
  /** Seconds a refused client is told to wait, sent as `Retry-After`. Default 1. */
  retryAfter: number;
  /** Switch a database file to write-ahead logging, so reads go on while a write runs. Default true. */
  wal: boolean;
}

/**
 * The SQLite settings the adapter applies when `configureSqlite` is not called, and starts from
 * when it is.
 */
export const SQLITE_DEFAULTS: Readonly<SqliteSettings> = Object.freeze({
  writeQueueTimeout: 10_000,
  writeQueueLength: 1000,
  busyTimeout: 5000,
  retryAfter: 1,
  wal: true,
});

/** Per Sequelize instance: its settings, its queue of writes, whether the file was switched to WAL. */
export interface SqliteState {
  settings: SqliteSettings;
  readonly queue: WriteQueue;
  walApplied: boolean;
}

const states = new WeakMap<Sequelize, SqliteState>();

/**
 * Sets how `sequelize`, a SQLite database, takes concurrent writes; call it
 * before the first query for WAL to apply from the start (the adapter applies
 * the defaults itself otherwise). Other dialects are left alone.
 */
export function configureSqlite(sequelize: Sequelize, settings: Partial<SqliteSettings> = {}): void {
  if (sequelize.getDialect() !== 'sqlite') return;
  const state = sqliteState(sequelize);
  state.settings = checked({ ...state.settings, ...settings });
  // connections open already (the default one) take the new timeout too; new ones get it when opened
  for (const connection of Object.values(connectionManager(sequelize).connections)) connection?.configure('busyTimeout', state.settings.busyTimeout);
}

/** The state of a SQLite `sequelize`, set up with the defaults on first use. */
export function sqliteState(sequelize: Sequelize): SqliteState {
  let state = states.get(sequelize);
  if (!state) {
    const settings = { ...SQLITE_DEFAULTS };
    const queue = new WriteQueue(() => ({ timeout: state!.settings.writeQueueTimeout, length: state!.settings.writeQueueLength, retryAfter: state!.settings.retryAfter }));
    state = { settings, queue, walApplied: false };
    states.set(sequelize, state);
    prepareConnections(sequelize, state);
    keepWriters(sequelize);
  }
  return state;
}

function checked(settings: SqliteSettings): SqliteSettings {
  const unknown = Object.keys(settings).filter((key) => !Object.hasOwn(SQLITE_DEFAULTS, key));
  if (unknown.length > 0) throw new TypeError(`configureSqlite: unknown setting ${unknown.join(', ')}; known: ${Object.keys(SQLITE_DEFAULTS).join(', ')}`);
  for (const key of ['writeQueueTimeout', 'writeQueueLength', 'busyTimeout', 'retryAfter'] as const) {
    const value = settings[key];
    // setTimeout takes at most 2^31-1 ms; a larger value would fire at once
    if (!Number.isSafeInteger(value) || value < 0 || value > 2_147_483_647) {
      throw new RangeError(`configureSqlite: ${key} must be a whole number from 0 to 2147483647, not ${String(value)}`);
    }
  }
  if (typeof settings.wal !== 'boolean') throw new TypeError(`configureSqlite: wal must be true or false, not ${String(settings.wal)}`);
  return settings;
}
