import type { Sequelize } from 'sequelize';
import { connectionManager, isInMemory, type SqliteConnection } from './connections.ts';

/** Where the kept connection waits between writes: among Sequelize's own, so that `sequelize.close()` closes it. */
const IDLE = 'mural-writer';
const writers = new WeakSet<SqliteConnection>();

/**
 * Mural's writes to a SQLite file run one at a time (transaction.ts),
 * each in a transaction on a connection of its own. Sequelize opens that
 * connection for the transaction and closes it after, so every write paid
 * for opening the file, reading its schema and setting the connection up.
 * One connection is kept for them instead: between writes it waits outside
 * any transaction, and a write that did not end cleanly closes it (see
 * `forgetWriter`), so the next write opens a fresh one.
 *
 * Call before the write's transaction takes its connection, under the id
 * Sequelize will ask for.
 */
export function lendWriter(sequelize: Sequelize, transactionId: string): void {
  const connections = connectionManager(sequelize).connections;
  const idle = connections[IDLE];
  if (!idle) return;
  delete connections[IDLE];
  // `sequelize.close()` closed it
  if (idle.open === false) return;
  connections[transactionId] = idle;
}

/** The connection a write's transaction began on, to keep when the transaction ends. */
export function markWriter(connection: SqliteConnection | undefined): void {
  if (connection && !isInMemory(connection)) writers.add(connection);
}

/** A write whose transaction did not end cleanly: its connection is closed, not kept. */
export function forgetWriter(sequelize: Sequelize, connection: SqliteConnection): void {
  writers.delete(connection);
  const connections = connectionManager(sequelize).connections;
  if (connections[IDLE] === connection) delete connections[IDLE];
}

/**
 * Sequelize releases a transaction's connection by closing it; a writer's
 * waits for the next write instead. Installed once per Sequelize instance,
 * with the rest of its SQLite setup (settings.ts).
 */
export function keepWriters(sequelize: Sequelize): void {
  const manager = connectionManager(sequelize);
  const release = manager.releaseConnection.bind(manager);
  manager.releaseConnection = (connection, force) => {
    const uuid = connection.uuid;
    if (force || uuid === undefined || !writers.has(connection) || manager.connections[IDLE]) return release(connection, force);
    delete manager.connections[uuid];
    manager.connections[IDLE] = connection;
    return undefined;
  };
}
