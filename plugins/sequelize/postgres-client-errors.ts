import type { Sequelize } from 'sequelize';

interface PgClient {
  on(event: 'error', listener: (error: Error) => void): unknown;
  _invalid?: boolean;
}
type PgClientClass = new (config: unknown) => PgClient;
interface PgModule {
  Client: PgClientClass;
}

const guarded = new WeakSet<object>();

/**
 * Keeps a PostgreSQL backend that dies as its connection opens from crashing
 * the process. Sequelize listens for a client's `error` events only once
 * `connect()` has resolved, a microtask after the driver reports the
 * connection ready; when the server's ReadyForQuery and a FATAL error (an
 * administrator's `pg_terminate_backend`, a restart) arrive in one packet,
 * the driver emits the error in between, to no listener, and Node throws it.
 *
 * Each client gets a listener from birth that marks it invalid, as
 * Sequelize's own does, so the pool discards it and the request using it
 * fails as a transient 503 instead.
 */
export function catchEarlyClientErrors(sequelize: Sequelize): void {
  if (sequelize.getDialect() !== 'postgres' || (sequelize as { config: { native?: boolean } }).config.native) return;
  const manager = sequelize.connectionManager as unknown as { lib?: PgModule };
  const lib = manager.lib;
  if (!lib?.Client || guarded.has(lib)) return;
  const Client = lib.Client;
  class ListenedClient extends Client {
    constructor(config: unknown) {
      super(config);
      this.on('error', () => {
        this._invalid = true;
      });
    }
  }
  // the module's other members (types, defaults) stay reachable through the prototype
  const wrapped = Object.create(lib, { Client: { value: ListenedClient, enumerable: true } }) as PgModule;
  guarded.add(wrapped);
  manager.lib = wrapped;
}
