import { STATUS_CODES } from 'node:http';
import type { Sequelize } from 'sequelize';
import { configure } from '../../core/index.ts';
import { createApp } from '../../examples/employee-directory/app.ts';
import { connect } from '../../examples/employee-directory/db/connection.ts';
import { seed } from '../../examples/employee-directory/db/seed.ts';
import { upgradeSchema } from '../../examples/employee-directory/db/upgrade.ts';
import { parseCurl, type Answer } from './doc-samples.ts';
import { serve, type HttpClient } from './http.ts';

/**
 * The key the docs' cursors were sealed with: with it, the cursors the docs
 * show are the ones the example answers (a server without
 * MURAL_CURSOR_SECRET draws a random key, and answers them 400).
 */
export const DOCS_CURSOR_SECRET = 'mural-docs';

/** The example API as a reader's fresh `npm start` serves it: a new database, seeded. */
export interface DocsApi {
  client: HttpClient;
  sequelize: Sequelize;
  close(): Promise<void>;
}

export async function startDocsApi(): Promise<DocsApi> {
  configure({ cursorSecret: DOCS_CURSOR_SECRET });
  const sequelize = connect(':memory:');
  const { app, models } = createApp(sequelize);
  await sequelize.sync();
  await upgradeSchema(sequelize);
  await seed(models);
  const client = await serve(app);
  return {
    client,
    sequelize,
    close: async () => {
      await client.close();
      await sequelize.close();
    },
  };
}

/** Sends what a docs' curl command sends, as curl would (its default Accept is any type). */
export async function sendCurl(api: DocsApi, words: string[]): Promise<Answer & { showHeaders: boolean }> {
  const request = parseCurl(words);
  const headers = { accept: '*/*', ...request.headers };
  const response = await api.client.request(request.method, request.path, request.body, headers);
  return { status: response.status, statusText: statusText(response.status), headers: response.headers, text: response.text, showHeaders: request.showHeaders };
}

/** The reason phrase curl prints on a status line (Node's fetch leaves it out): Node's own, which Express sends. */
function statusText(status: number): string {
  return STATUS_CODES[status] ?? '';
}
