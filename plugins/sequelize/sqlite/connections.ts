import type { Sequelize } from 'sequelize';

/** The part of a node-sqlite3 `Database` Mural uses. */
export interface SqliteConnection {
  readonly filename?: string;
  /** False once closed. */
  readonly open?: boolean;
  /** The id of the transaction holding it, while one does (set by Sequelize). */
  uuid?: string;
  configure(option: 'busyTimeout', value: number): void;
  get(sql: string, callback: (error: Error | null, row?: Record<string, unknown>) => void): unknown;
  run(sql: string, callback: (error: Error | null) => void): unknown;
  close(callback: (error: Error | null) => void): unknown;
}

/**
 * Sequelize's SQLite connection manager: one connection, `default`, for
 * queries outside transactions, plus one opened per transaction under the
 * transaction's id (an in-memory database shares one connection).
 */
export interface SqliteConnectionManager {
  connections: Record<string, SqliteConnection | undefined>;
  getConnection(options?: object): Promise<SqliteConnection>;
  /** Closes a transaction's connection (one with a `uuid`); leaves the others open. */
  releaseConnection(connection: SqliteConnection, force?: boolean): unknown;
}

/** Connections whose preparation has started (prepareConnections). */
const prepared = new WeakSet<SqliteConnection>();
/** Connections prepared and ready for statements. */
const ready = new WeakSet<SqliteConnection>();

export function connectionManager(sequelize: Sequelize): SqliteConnectionManager {
  return sequelize.connectionManager as unknown as SqliteConnectionManager;
}

/**
 * The connection Sequelize reads on outside transactions, when it is open
 * and prepared: it is shared by every such read and never released, so a
 * read can take it without a trip through the (asynchronous) connection
 * manager. Undefined on other dialects, or before the first query opened it.
 */
export function readyConnection(sequelize: Sequelize): SqliteConnection | undefined {
  if (sequelize.getDialect() !== 'sqlite') return undefined;
  const manager = connectionManager(sequelize);
  // Sequelize's own key for it: 1 in memory, 'default' on a file
  const storage = (sequelize as unknown as { options: { storage?: string } }).options.storage;
  const connection = manager.connections[storage === ':memory:' ? 1 : 'default'];
  return connection && connection.open !== false && ready.has(connection) ? connection : undefined;
}

export function isInMemory(connection: SqliteConnection): boolean {
  return connection.filename === ':memory:' || connection.filename === '';
}

/** What preparing a connection reads of a database's settings (settings.ts), and records there. */
export interface ConnectionPreparation {
  readonly settings: { readonly busyTimeout: number; readonly wal: boolean };
  walApplied: boolean;
}

/**
 * Prepares every connection Sequelize opens on `sequelize` before its first
 * query: the busy timeout (node-sqlite3 sets 1 s, and Sequelize offers no
 * hook for SQLite connections), and once per database file, WAL.
 */
export function prepareConnections(sequelize: Sequelize, state: ConnectionPreparation): void {
  const manager = connectionManager(sequelize);
  const open = manager.getConnection.bind(manager);
  manager.getConnection = async (options?: object) => {
    const connection = await open(options);
    if (!prepared.has(connection)) {
      prepared.add(connection);
      await prepare(connection, state);
      ready.add(connection);
    }
    return connection;
  };
}

async function prepare(connection: SqliteConnection, state: ConnectionPreparation): Promise<void> {
  connection.configure('busyTimeout', state.settings.busyTimeout);
  if (!state.settings.wal || state.walApplied || isInMemory(connection)) return;
  try {
    // WAL is a property of the file, kept across connections and restarts: readers no longer block the writer nor it them
    await query(connection, 'PRAGMA journal_mode = WAL');
    state.walApplied = true;
  } catch {
    // another connection is inside a transaction on the file; the next connection opened tries again
  }
}

/** Runs `sql` on the raw connection, outside Sequelize (and its retries). */
export function query(connection: SqliteConnection, sql: string): Promise<Record<string, unknown> | undefined> {
  return new Promise((resolve, reject) => {
    connection.get(sql, (error, row) => (error ? reject(error) : resolve(row)));
  });
}
