import type { Sequelize } from 'sequelize';
import { createApp } from '../../examples/employee-directory/app.ts';
import type { Models } from '../../examples/employee-directory/db/models/index.ts';
import { seed } from '../../examples/employee-directory/db/seed.ts';
import type { DirectoryResources } from '../../examples/employee-directory/resources/index.ts';
import { openDatabase, type TestDatabase } from './databases.ts';

export interface Directory {
  sequelize: Sequelize;
  models: Models;
  resources: DirectoryResources;
  app: ReturnType<typeof createApp>['app'];
  /** SQL statements run since the last `reset()`. */
  queries: string[];
  resetQueries(): void;
}

/** The example application on an isolated, seeded database, counting its SQL. */
export async function openDirectory(db: TestDatabase, key: string, employees = 300): Promise<Directory> {
  const queries: string[] = [];
  let counting = false;
  const sequelize = await openDatabase(db, key, { logging: (sql) => void (counting && queries.push(sql)) });
  const { app, models, resources } = createApp(sequelize);
  await sequelize.sync({ force: true });
  await seed(models, { employees });
  counting = true;
  return { sequelize, models, resources, app, queries, resetQueries: () => void (queries.length = 0) };
}

/** Rows in every table of the directory, to prove a failed write left nothing behind. */
export async function tableCounts(models: Models): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const [name, model] of Object.entries(models)) counts[name] = await (model as { count(): Promise<number> }).count();
  return counts;
}
