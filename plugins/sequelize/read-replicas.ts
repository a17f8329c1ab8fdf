import { ConnectionAcquireTimeoutError, ConnectionError, type Sequelize } from 'sequelize';
import { readsOwnWrites } from '../../core/index.ts';

/** Settings of `configureReplicas`, for a Sequelize instance with `replication`. */
export interface ReplicaSettings {
  /**
   * Milliseconds for which reads go to the primary after a replica could not
   * be reached, before one request tries the replica again.
   */
  retryAfter: number;
}

/** The read replica settings `configureReplicas` starts from. */
export const REPLICA_DEFAULTS: Readonly<ReplicaSettings> = Object.freeze({ retryAfter: 5000 });

interface AcquireOptions {
  type?: string;
  useMaster?: boolean;
}

interface ConnectionManager {
  config: { replication?: unknown };
  getConnection(options?: AcquireOptions): Promise<object>;
  _connect(config: unknown): Promise<object>;
}

interface ReplicaState {
  settings: ReplicaSettings;
  /** `Date.now()` before which reads skip the replicas. */
  downUntil: number;
  /** A request is finding out whether the replicas are back; the others keep to the primary meanwhile. */
  probing: boolean;
}

const states = new WeakMap<Sequelize, ReplicaState>();
/** The settings each connection was opened with: a cancel must reach the server that runs the statement. */
const configs = new WeakMap<object, unknown>();

/** Settings for the read replicas of `sequelize` (Sequelize's `replication` option). */
export function configureReplicas(sequelize: Sequelize, settings: Partial<ReplicaSettings> = {}): void {
  stateOf(sequelize).settings = { ...REPLICA_DEFAULTS, ...settings };
}

function stateOf(sequelize: Sequelize): ReplicaState {
  let state = states.get(sequelize);
  if (!state) states.set(sequelize, (state = { settings: { ...REPLICA_DEFAULTS }, downUntil: 0, probing: false }));
  return state;
}

/**
 * With Sequelize's `replication`, a SELECT outside a transaction takes a
 * connection of the read pool (a replica) and everything else one of the
 * write pool (the primary); a transaction holds a primary connection that
 * every statement inside it uses. On top of that:
 *
 * - a read that must see the request's own writes (core's `readsOwnWrites`:
 *   the response of a committed write) goes to the primary, as a replica may
 *   not have replayed the write yet;
 * - a replica that cannot be reached sends reads to the primary, and after
 *   `retryAfter` one read tries the replica again.
 *
 * Installed on the connection manager, where both `sequelize.query` and the
 * direct SELECTs of driver-select.ts take their connections.
 */
export function routeReads(sequelize: Sequelize): void {
  const manager = (sequelize as unknown as { connectionManager: ConnectionManager }).connectionManager;
  const connect = manager._connect.bind(manager);
  manager._connect = async (config) => {
    const connection = await connect(config);
    configs.set(connection, config);
    return connection;
  };
  if (!manager.config.replication) return;
  const state = stateOf(sequelize);
  const getConnection = manager.getConnection.bind(manager);
  manager.getConnection = (options = {}) => {
    if (options.type !== 'SELECT' || options.useMaster) return getConnection(options);
    if (readsOwnWrites()) return getConnection({ ...options, useMaster: true });
    return fromReplica(state, options, getConnection);
  };
}

async function fromReplica(
  state: ReplicaState,
  options: AcquireOptions,
  getConnection: (options: AcquireOptions) => Promise<object>,
): Promise<object> {
  const primary = { ...options, useMaster: true };
  if (Date.now() < state.downUntil || state.probing) return getConnection(primary);
  const probing = state.downUntil > 0;
  state.probing = probing;
  try {
    const connection = await getConnection(options);
    state.downUntil = 0;
    return connection;
  } catch (error) {
    if (!unreachable(error)) throw error;
    state.downUntil = Date.now() + state.settings.retryAfter;
    return getConnection(primary);
  } finally {
    if (probing) state.probing = false;
  }
}

/** A replica refused, reset or timed out the connection, or is starting up; a full pool is not a failure of the replica. */
function unreachable(error: unknown): boolean {
  return error instanceof ConnectionError && !(error instanceof ConnectionAcquireTimeoutError);
}

/** What `connection` was opened with: the replica's host and port for a read connection. */
export function connectionConfig(connection: object, fallback: unknown): unknown {
  return configs.get(connection) ?? fallback;
}
