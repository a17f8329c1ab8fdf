import test from 'ava';
import type { Sequelize } from 'sequelize';
import { createApp } from '../../examples/employee-directory/app.ts';
import { seed } from '../../examples/employee-directory/db/seed.ts';
import { openDatabase, type TestDatabase } from './databases.ts';
import { serve, type HttpClient } from './http.ts';

/** A GET as a client reads it: the status and the parsed document. */
export type ExampleGet<Doc> = (path: string, headers?: Record<string, string>) => Promise<{ status: number; body: Doc }>;

/**
 * The example application as `npm start` serves it, on a database of its
 * own (`name`), freshly seeded, for the tests of one file: registers the
 * `before` and `after` hooks, and answers the GET those tests make.
 */
export function exampleApi<Doc>(db: TestDatabase, name: string, seedOptions?: Parameters<typeof seed>[1]): ExampleGet<Doc> {
  let sequelize: Sequelize | undefined;
  let client: HttpClient | undefined;
  test.before(async () => {
    sequelize = await openDatabase(db, name);
    const { app, models } = createApp(sequelize);
    await sequelize.sync({ force: true });
    await seed(models, seedOptions);
    client = await serve(app);
  });
  test.after.always(async () => {
    await client?.close();
    await sequelize?.close();
  });
  return async (path, headers) => {
    const response = await client!.get(path, headers);
    return { status: response.status, body: response.body as Doc };
  };
}
