import { ConnectionAcquireTimeoutError, type Sequelize } from 'sequelize';

interface AcquireOptions {
  type?: string;
  useMaster?: boolean;
}

interface PooledManager {
  /** sequelize-pool's pool, or Sequelize's read/write pair of them under `replication`. */
  pool?: { acquire(type?: string, useMaster?: boolean): Promise<object> };
  getConnection(options?: AcquireOptions): Promise<object>;
}

interface HookedSequelize {
  options: { databaseVersion?: unknown };
  hasHook(name: string): boolean;
}

/**
 * Sequelize's `getConnection` wraps the pool's checkout in two hook runs
 * (`beforePoolAcquire`, `afterPoolAcquire`), each an async function awaited
 * whether any hook is registered or not: a handful of promises and
 * microtask turns for every statement, most of what a checkout costs. With
 * no such hook registered and the server's version known (Sequelize asks
 * for it on first use), this takes the connection from the pool directly,
 * with the same timeout error; otherwise Sequelize's own path runs.
 * Installed beneath everything else Mural puts on the connection manager.
 */
export function lightenCheckout(sequelize: Sequelize): void {
  const manager = (sequelize as unknown as { connectionManager: PooledManager }).connectionManager;
  // only Sequelize's pooled checkout itself (PostgreSQL, MySQL, MariaDB), never a dialect's own or one already wrapped
  if (!['postgres', 'mysql', 'mariadb'].includes(sequelize.getDialect()) || Object.hasOwn(manager, 'getConnection')) return;
  const getConnection = manager.getConnection.bind(manager);
  const hooked = sequelize as unknown as HookedSequelize;
  manager.getConnection = (options = {}) => {
    const pool = manager.pool;
    if (!pool || hooked.options.databaseVersion === 0 || hooked.hasHook('beforePoolAcquire') || hooked.hasHook('afterPoolAcquire')) {
      return getConnection(options);
    }
    return pool.acquire(options.type, options.useMaster).catch(asAcquireTimeout);
  };
}

/** sequelize-pool's TimeoutError, as Sequelize reports it. */
function asAcquireTimeout(error: unknown): never {
  if (error instanceof Error && error.constructor.name === 'TimeoutError') throw new ConnectionAcquireTimeoutError(error);
  throw error;
}
