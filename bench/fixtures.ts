import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sequelize } from 'sequelize';
import { createApp } from '../examples/employee-directory/app.ts';
import { connect } from '../examples/employee-directory/db/connection.ts';
import { seed } from '../examples/employee-directory/db/seed.ts';

export type Fixture = Awaited<ReturnType<typeof openFixture>>;

/** The example application on a fresh SQLite file (or PostgreSQL) with `employees` seeded employees. */
export async function openFixture(employees: number, url?: string) {
  const dir = join(tmpdir(), `mural-bench-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `bench-${employees}.db`);
  rmSync(file, { force: true });
  const queries: string[] = [];
  let counting = false;
  const sequelize: Sequelize = connect(url ?? `sqlite:${file}`, { logging: (sql) => void (counting && queries.push(sql)) });
  const { app, models, resources } = createApp(sequelize);
  await sequelize.sync({ force: true });
  await seed(models, { employees });
  counting = true;
  return { sequelize, app, models, resources, file, dialect: sequelize.getDialect(), queries };
}
