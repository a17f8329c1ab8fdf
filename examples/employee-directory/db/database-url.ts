import type { Sequelize } from 'sequelize';

/** A DATABASE_URL the directory cannot use, said in one line with what to do about it. */
export class DatabaseUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseUrlError';
  }
}

const FORMS = 'postgres://user:password@host:5432/name, mysql://user:password@host:3306/name, sqlite:/absolute/path.db or :memory:';
/** The databases the directory is tested on; Sequelize knows others, whose drivers it does not ship. */
const PROTOCOLS = new Set(['postgres:', 'postgresql:', 'mysql:', 'mariadb:']);

/** The URL without its password, to be shown. */
export function redacted(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** Refuses a DATABASE_URL of a server database that cannot be parsed or names a database the directory does not run on. */
export function checkServerUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DatabaseUrlError(`DATABASE_URL is not a database URL: ${JSON.stringify(redacted(url))}; use ${FORMS}`);
  }
  if (!PROTOCOLS.has(parsed.protocol)) {
    throw new DatabaseUrlError(`DATABASE_URL names an unknown database ${JSON.stringify(parsed.protocol.slice(0, -1))}; use ${FORMS}`);
  }
  if (!parsed.hostname) throw new DatabaseUrlError(`DATABASE_URL names no host: ${JSON.stringify(redacted(url))}; use ${FORMS}`);
}

/** Sequelize's connection errors, as a person reads them. */
function reason(error: Error & { parent?: Error }): string {
  const detail = error.parent?.message ?? error.message;
  switch (error.name) {
    case 'SequelizeConnectionRefusedError':
      return `nothing answers there (${detail}); is the database running?`;
    case 'SequelizeHostNotFoundError':
      return `its host is not found (${detail})`;
    case 'SequelizeAccessDeniedError':
      return `the database refused the user or password (${detail})`;
    case 'SequelizeConnectionTimedOutError':
      return `the connection timed out (${detail})`;
    default:
      return detail;
  }
}

/**
 * Connects once, before anything is served or synced: a database that cannot
 * be reached fails here as a DatabaseUrlError naming DATABASE_URL, rather
 * than as a driver's stack from the first query.
 */
export async function verifyConnection(sequelize: Sequelize, url: string | undefined): Promise<void> {
  try {
    await sequelize.authenticate();
  } catch (error) {
    const where = url ? `DATABASE_URL ${redacted(url)}` : 'the default SQLite file (DATABASE_URL is unset)';
    throw new DatabaseUrlError(`Cannot connect to ${where}: ${reason(error as Error)}`);
  }
}
