import test, { type ExecutionContext } from 'ava';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueryTypes, Sequelize } from 'sequelize';
import { generate, generatedApp, runPrinted } from '../support/generated-app.ts';

/**
 * A generated test recreates its model's table. It must do so in a database
 * of its own, never the application's: an in-memory SQLite database, or the
 * one MURAL_TEST_DATABASE_URL names. Here the development database already
 * has an `authors` table, with rows, when `generate resource Author` runs.
 */
async function inDatabase<T>(file: string, work: (db: Sequelize) => Promise<T>): Promise<T> {
  const sequelize = new Sequelize({ dialect: 'sqlite', storage: file, logging: false });
  try {
    return await work(sequelize);
  } finally {
    await sequelize.close();
  }
}

/** The table's definition and rows, as text. */
const authors = (db: Sequelize) =>
  db.query("SELECT sql AS row FROM sqlite_master WHERE name = 'authors' UNION ALL SELECT id || ' ' || name || ' ' || shelf FROM authors", { type: QueryTypes.SELECT });

/** An application whose development database already holds authors, and the command that runs the generated test. */
async function appWithAuthors(t: ExecutionContext): Promise<{ dir: string; dev: string; command: string; before: unknown[] }> {
  const dir = generatedApp(t, 'typescript', 'node');
  const dev = join(dir, 'dev.db');
  await inDatabase(dev, async (db) => {
    await db.query('CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL, shelf TEXT)');
    await db.query("INSERT INTO authors VALUES (1, 'Ada Lovelace', 'A3'), (2, 'Mary Shelley', 'S1')");
  });
  const before = await inDatabase(dev, authors);
  const command = await generate(t, dir, 'Author', 'name:string', 'born:integer');
  return { dir, dev, command, before };
}

test('by default the generated test runs on an in-memory database: the development table keeps its columns and rows', async (t) => {
  const { dir, dev, command, before } = await appWithAuthors(t);
  const { code, output } = await runPrinted(dir, command);
  t.is(code, 0, output);
  t.regex(output, /# pass 6\n/);
  t.deepEqual(await inDatabase(dev, authors), before);
  t.is(before.length, 3);
});

test('MURAL_TEST_DATABASE_URL names the test database: the table is recreated there, and only there', async (t) => {
  const { dir, dev, command, before } = await appWithAuthors(t);
  const testDatabase = join(tmpdir(), `mural-generated-test-${process.pid}.db`);
  t.teardown(() => rmSync(testDatabase, { force: true }));
  const { code, output } = await runPrinted(dir, command, { MURAL_TEST_DATABASE_URL: `sqlite:${testDatabase}` });
  t.is(code, 0, output);
  const columns = await inDatabase(testDatabase, (db) => db.query<{ name: string }>('PRAGMA table_info(authors)', { type: QueryTypes.SELECT }));
  t.deepEqual(columns.map((c) => c.name), ['id', 'name', 'born'], 'the generated model\'s table');
  t.deepEqual(await inDatabase(dev, authors), before);
});

test('a MURAL_TEST_DATABASE_URL that is DATABASE_URL is refused before any query', async (t) => {
  const { dir, dev, command, before } = await appWithAuthors(t);
  const url = `sqlite:${dev}`;
  const { code, output } = await runPrinted(dir, command, { MURAL_TEST_DATABASE_URL: url, DATABASE_URL: url });
  t.not(code, 0);
  t.regex(output, /MURAL_TEST_DATABASE_URL is DATABASE_URL: these tests drop and recreate tables; give them a database of their own/);
  t.deepEqual(await inDatabase(dev, authors), before);
});
