import { QueryTypes, Sequelize } from 'sequelize';

interface ConnectionManager {
  getConnection(options: { type: string; useMaster?: boolean }): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<void> | void;
}

/** The parts of a Sequelize instance Mural reads to run a statement through the driver itself. */
export interface SequelizeInternals {
  connectionManager: ConnectionManager;
  options: {
    logging?: false | ((sql: string, options?: unknown) => void);
    logQueryParameters?: boolean;
    benchmark?: boolean;
    minifyAliases?: boolean;
    native?: boolean;
    dialectOptions?: { prependSearchPath?: boolean };
  };
  hasHook(name: string): boolean;
  log(...args: unknown[]): void;
}

/**
 * Whether something could tell a statement Mural runs through the driver from
 * one `sequelize.query` runs (query hooks, CLS transactions, benchmark
 * logging, a prepended search path): such statements keep Sequelize's path.
 */
export function observed(sequelize: SequelizeInternals): boolean {
  const cls = (Sequelize as unknown as { _cls?: unknown })._cls;
  const { benchmark, minifyAliases, dialectOptions } = sequelize.options;
  return Boolean(cls || benchmark || minifyAliases || dialectOptions?.prependSearchPath) || sequelize.hasHook('beforeQuery') || sequelize.hasHook('afterQuery');
}

/** The same log line `sequelize.query` writes, so query logs and counts stay complete. */
export function logQuery(sequelize: SequelizeInternals, connection: unknown, sql: string, parameters?: unknown, type: string = QueryTypes.SELECT): void {
  const logging = sequelize.options.logging;
  if (!logging) return;
  const uuid = (connection as { uuid?: string }).uuid ?? 'default';
  const shown = sequelize.options.logQueryParameters && parameters !== undefined ? `${sql.endsWith(';') ? '' : ';'} ${listed(parameters)}` : '';
  sequelize.log(`Executing (${uuid}): ${sql}${shown}`, { logging, type, raw: true });
}

function listed(parameters: unknown): string {
  const shown = (value: unknown) => JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
  return Array.isArray(parameters) ? parameters.map(shown).join(', ') : shown(parameters);
}
