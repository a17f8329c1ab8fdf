/**
 * What every app installed from the packed tarballs must answer, over HTTP,
 * once its server is up (test/package/*.test.ts).
 */
import type { ExecutionContext } from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installedVersion, repo, startServer, type RunningServer } from './packed-app.ts';

/** The runtime's peers an app installs, at the versions this repository tests with. */
export const RUNTIME_PEERS = ['express', 'sequelize', 'sqlite3'].map((name) => `${name}@${installedVersion(name)}`);

/** The request every app must answer: authors with their books included. */
export async function assertIncludeQuery(t: ExecutionContext, server: RunningServer): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${server.port}/api/v1/authors?include=books&sort=-name`);
  t.is(response.status, 200, server.output());
  t.is(response.headers.get('content-type'), 'application/vnd.api+json');
  const document = (await response.json()) as {
    data: Array<{ type: string; attributes: { name: string }; relationships: { books: { data: Array<{ type: string; id: string }> } } }>;
    included: Array<{ type: string; id: string; attributes: { title: string } }>;
  };
  t.deepEqual(document.data.map((a) => a.attributes.name), ['Mary Shelley', 'Ada Lovelace']);
  t.deepEqual(document.data.map((a) => a.relationships.books.data.length), [2, 1]);
  const titles = new Map(document.included.map((book) => [`${book.type}:${book.id}`, book.attributes.title]));
  t.deepEqual(
    document.data[0]!.relationships.books.data.map((book) => titles.get(`${book.type}:${book.id}`)).sort(),
    ['Frankenstein', 'The Last Man'],
  );
}

/** A create, a bad query and an unknown route: the router's body reading and error answers under this app's Express. */
export async function assertWriteAndErrors(t: ExecutionContext, server: RunningServer): Promise<void> {
  const base = `http://127.0.0.1:${server.port}/api/v1`;
  const created = await fetch(`${base}/authors`, {
    method: 'POST',
    headers: { 'content-type': 'application/vnd.api+json' },
    body: JSON.stringify({ data: { type: 'authors', attributes: { name: 'Octavia Butler' } } }),
  });
  t.is(created.status, 201, server.output());
  t.like(await created.json(), { data: { type: 'authors', attributes: { name: 'Octavia Butler' } } });
  const bad = await fetch(`${base}/authors?filter[nope]=1`);
  t.is(bad.status, 400);
  t.like(await bad.json(), { errors: [{ status: '400', code: 'unknown_filter', source: { parameter: 'filter[nope]' } }] });
  const unknown = await fetch(`${base}/nothing`);
  t.is(unknown.status, 404);
  t.like(await unknown.json(), { errors: [{ status: '404' }] });
}

/** The API explorer (on outside production): the page and the files it loads come out of the installed package. */
export async function assertExplorer(t: ExecutionContext, server: RunningServer): Promise<void> {
  const base = `http://127.0.0.1:${server.port}/api/v1/explorer`;
  const page = await fetch(base);
  t.is(page.status, 200, server.output());
  t.is(page.headers.get('content-type'), 'text/html; charset=utf-8');
  t.regex(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  t.regex(await page.text(), /<script type="module" src="explorer\/explorer\.js"><\/script>/);
  const script = await fetch(`${base}/explorer.js`);
  t.is(script.headers.get('content-type'), 'text/javascript; charset=utf-8');
  t.is(await script.text(), readFileSync(join(repo, 'plugins/express/explorer/explorer.js'), 'utf8'));
  const schema = (await (await fetch(`${base}/schema.json`)).json()) as { schema: { resources: Array<{ name: string }> } };
  t.deepEqual(schema.schema.resources.map((r) => r.name), ['AuthorResource', 'BookResource']);
  t.regex(await (await fetch(`${base}/diagram.svg`)).text(), /<g data-edge="AuthorResource\.books">/);
}

/**
 * The CommonJS app's `serverTiming` function, on Express 4, which leaves an
 * async handler's rejection unhandled: the header when it says so, and its
 * throwing a 500 for that request alone.
 */
export async function assertServerTiming(t: ExecutionContext, server: RunningServer): Promise<void> {
  const base = `http://127.0.0.1:${server.port}/api/v1`;
  const timed = await fetch(`${base}/books?include=author`, { headers: { 'X-Timing': 'yes' } });
  t.is(timed.status, 200, server.output());
  t.regex(timed.headers.get('server-timing') ?? '', /^db;dur=[\d.]+;desc="books resolve, \d+ records?", .*db;dur=[\d.]+;desc="authors resolve, \d+ records?", .*total;dur=[\d.]+;desc="Mural"$/);
  t.is((await fetch(`${base}/books`)).headers.get('server-timing'), null);
  const broken = await fetch(`${base}/books`, { headers: { 'X-Break': 'yes' } });
  t.is(broken.status, 500, server.output());
  t.like(await broken.json(), { errors: [{ status: '500' }] });
  t.is((await fetch(`${base}/books`)).status, 200, `the server goes on serving: ${server.output()}`);
}

export async function serveAndQuery(t: ExecutionContext, command: string, args: string[], cwd: string, ...more: Array<typeof assertServerTiming>): Promise<void> {
  const server = await startServer(command, args, cwd);
  try {
    await assertIncludeQuery(t, server);
    await assertWriteAndErrors(t, server);
    await assertExplorer(t, server);
    for (const check of more) await check(t, server);
  } finally {
    await server.stop();
  }
}
