import type { Sequelize } from 'sequelize';
import { connectionConfig } from './read-replicas.ts';

/** The parts of Sequelize's connection manager a cancel needs. */
export interface ConnectionManager {
  config: unknown;
  getConnection(options?: unknown): Promise<object>;
  releaseConnection(connection: object): unknown;
  _connect(config: unknown): Promise<object>;
  _disconnect(connection: object): Promise<unknown>;
}

interface SqliteConnection {
  interrupt(): void;
}
interface PostgresConnection {
  processID: number;
  query(sql: string, values: unknown[]): Promise<unknown>;
}
interface MysqlConnection {
  threadId: number;
  query(sql: string, callback: (error: Error | null) => void): unknown;
}

/**
 * Stops the statement running on `connection`, in the database: SQLite's
 * `interrupt()`; on a server, a cancel sent over a connection of its own, so
 * it never waits for the pool the late statement may be exhausting.
 * Resolves once the server has taken the cancel, so that the connection is
 * not handed to another request with a cancel still on its way.
 */
export async function cancelStatement(sequelize: Sequelize, connection: object): Promise<void> {
  const dialect = sequelize.getDialect();
  if (dialect === 'sqlite') return (connection as SqliteConnection).interrupt();
  const manager = (sequelize as unknown as { connectionManager: ConnectionManager }).connectionManager;
  // the server the statement runs on: a replica's for a read on a replica
  const killer = await manager._connect(connectionConfig(connection, manager.config));
  try {
    if (dialect === 'postgres') {
      await (killer as PostgresConnection).query('SELECT pg_cancel_backend($1)', [(connection as PostgresConnection).processID]);
    } else if (dialect === 'mysql') {
      const thread = Number((connection as MysqlConnection).threadId);
      await new Promise<void>((resolve, reject) => (killer as MysqlConnection).query(`KILL QUERY ${thread}`, (e) => (e ? reject(e) : resolve())));
    }
  } finally {
    await manager._disconnect(killer);
  }
}

/** An error SQLite raises in every statement an `interrupt()` reached. */
export function interruptedByCancel(sequelize: Sequelize, error: unknown): boolean {
  if (sequelize.getDialect() !== 'sqlite') return false;
  const original = (error as { original?: { code?: string } } | null)?.original ?? (error as { code?: string } | null);
  return original?.code === 'SQLITE_INTERRUPT';
}
