import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Sequelize } from 'sequelize';
import { createApp } from '../examples/employee-directory/app.ts';
import { connect } from '../examples/employee-directory/db/connection.ts';
import { seed } from '../examples/employee-directory/db/seed.ts';

export type Fixture = Awaited<ReturnType<typeof openFixture>>;

/** Where the SQLite fixtures live; `removeFixtureFiles` deletes it when the run ends. */
const dir = join(tmpdir(), `mural-bench-${process.pid}`);

export function removeFixtureFiles(): void {
  rmSync(dir, { recursive: true, force: true });
}

/**
 * The example application with `employees` seeded employees, on a fresh
 * SQLite file, or on a fresh PostgreSQL database next to `postgresUrl`'s,
 * named `database`: a tool that may run while `npm run bench` does passes its
 * own name, since the fresh database is dropped first.
 */
export async function openFixture(employees: number, postgresUrl?: string, database = `mural_bench_${employees}`) {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `bench-${employees}.db`);
  if (!postgresUrl) rmSync(file, { force: true });
  const url = postgresUrl ? await freshPostgres(postgresUrl, database) : `sqlite:${file}`;
  const sequelize: Sequelize = connect(url);
  const { app, models, resources } = createApp(sequelize);
  await sequelize.sync({ force: true });
  await seed(models, { employees });
  // what the raw-driver baseline connects to
  const target = postgresUrl ? url : file;
  return { sequelize, app, models, resources, file, target, dialect: sequelize.getDialect(), countQueries: (run: () => Promise<unknown>) => countQueries(sequelize, run) };
}

/**
 * The statements `run` sends, counted through Sequelize's query log, which
 * is on only meanwhile: a log while timing would cost Mural and the
 * Sequelize baseline a call per statement that the raw driver never pays.
 */
async function countQueries(sequelize: Sequelize, run: () => Promise<unknown>): Promise<number> {
  const options = (sequelize as unknown as { options: { logging: false | (() => void) } }).options;
  let count = 0;
  options.logging = () => void count++;
  try {
    await run();
  } finally {
    options.logging = false;
  }
  return count;
}

export async function freshPostgres(url: string, name: string): Promise<string> {
  const admin = new Sequelize(url, { logging: false });
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.close();
  const fresh = new URL(url);
  fresh.pathname = `/${name}`;
  return fresh.toString();
}
