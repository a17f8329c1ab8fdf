import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Sequelize } from 'sequelize';
import { configureSqlite } from 'mural/sequelize';

const DEFAULT_FILE = resolve(dirname(fileURLToPath(import.meta.url)), '../../../.data/employee-directory.db');

/**
 * Opens the directory's database. `url` is Sequelize's URL form
 * (`sqlite:/abs/path.db`, `postgres://…`, `mysql://…`); absent, a SQLite file
 * in `.data/`; `':memory:'`, an in-memory SQLite database.
 */
export function connect(url?: string, options: { logging?: (sql: string) => void } = {}): Sequelize {
  const sequelize = open(url, options.logging ?? false);
  // WAL and the busy timeout from the first query on (a no-op on other databases)
  configureSqlite(sequelize);
  return sequelize;
}

function open(url: string | undefined, logging: false | ((sql: string) => void)): Sequelize {
  if (url === ':memory:') return new Sequelize({ dialect: 'sqlite', storage: ':memory:', logging });
  if (!url) {
    mkdirSync(dirname(DEFAULT_FILE), { recursive: true });
    return new Sequelize({ dialect: 'sqlite', storage: DEFAULT_FILE, logging });
  }
  if (url.startsWith('sqlite:')) {
    const storage = url.replace(/^sqlite:(\/\/)?/, '');
    if (storage !== ':memory:') mkdirSync(dirname(resolve(storage)), { recursive: true });
    return new Sequelize({ dialect: 'sqlite', storage, logging });
  }
  return new Sequelize(url, { logging });
}
