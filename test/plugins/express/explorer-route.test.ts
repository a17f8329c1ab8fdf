import test from 'ava';
import express from 'express';
import type { Sequelize } from 'sequelize';
import { Resource } from '../../../core/index.ts';
import { createApp } from '../../../examples/employee-directory/app.ts';
import { connect } from '../../../examples/employee-directory/db/connection.ts';
import { EXPLORER_CSP, type ExplorerDocument } from '../../../plugins/express/explorer-route.ts';
import { muralRouter } from '../../../plugins/express/index.ts';
import { gadgetApi } from '../../support/gadget-api.ts';
import { serve, type HttpClient } from '../../support/http.ts';
import { ADMIN } from '../../support/example-auth.ts';

/** `muralRouter({ explorer })`: the page, its files, and the schema and diagram it reads, as HTTP shows them. */

let sequelize: Sequelize;
let client: HttpClient;
const gadgets = Object.values(gadgetApi());
// the gadgets have no models: these routers serve their description, never their records
const describedOnly = { checkResources: false } as const;

test.before(async () => {
  sequelize = connect(':memory:');
  client = await serve(createApp(sequelize).app);
});
test.after.always(async () => {
  await client?.close();
  await sequelize?.close();
});

/** A router built while NODE_ENV is `env` (undefined: unset), which decides the default. */
function withNodeEnv<T>(env: string | undefined, build: () => T): T {
  const saved = process.env.NODE_ENV;
  if (env === undefined) delete process.env.NODE_ENV;
  else process.env.NODE_ENV = env;
  try {
    return build();
  } finally {
    if (saved === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = saved;
  }
}

test('the page is HTML under a strict Content-Security-Policy, naming only its own files, none inline', async (t) => {
  const page = await client.get('/api/v1/explorer');
  t.is(page.status, 200);
  t.is(page.contentType, 'text/html; charset=utf-8');
  t.is(page.headers.get('content-security-policy'), EXPLORER_CSP);
  t.regex(EXPLORER_CSP, /default-src 'none'; script-src 'self'; style-src 'self'/);
  t.is(page.headers.get('x-content-type-options'), 'nosniff');
  t.regex(page.headers.get('etag') ?? '', /^"[\w-]+"$/);
  t.is(page.headers.get('cache-control'), 'no-cache');
  const scripts = [...page.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
  t.deepEqual(scripts.map((m) => [m[1]!.trim(), m[2]]), [['type="module" src="explorer/explorer.js"', '']]);
  t.notRegex(page.text, /<style|\sstyle=|\son\w+=|https?:\/\//);
});

test('every file the page loads is served with its type: the ES modules it imports, its stylesheet', async (t) => {
  const seen = new Set<string>();
  const queue = ['explorer.js', 'explorer.css'];
  while (queue.length > 0) {
    const name = queue.shift()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const file = await client.get(`/api/v1/explorer/${name}`);
    t.is(file.status, 200, name);
    t.is(file.contentType, name.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8', name);
    t.is(file.headers.get('content-security-policy'), EXPLORER_CSP);
    for (const [, imported] of file.text.matchAll(/from '\.\/([\w-]+\.js)'/g)) queue.push(imported!);
  }
  t.deepEqual([...seen].sort(), ['document-view.js', 'dom.js', 'explorer.css', 'explorer.js', 'query-form.js', 'query-url.js', 'related-paths.js', 'schema-view.js', 'server-timing.js']);
});

test('an unchanged file is a 304; a trailing slash redirects to the page; an unknown file is a JSON:API 404', async (t) => {
  const first = await client.get('/api/v1/explorer/explorer.js');
  // the explorer is no part of the API its OpenAPI document describes: plain fetch
  const again = await fetch(`${client.baseUrl}/api/v1/explorer/explorer.js`, { headers: { 'If-None-Match': first.headers.get('etag')! } });
  t.is(again.status, 304);
  t.is(await again.text(), '');
  const slash = await fetch(`${client.baseUrl}/api/v1/explorer/`, { redirect: 'manual' });
  t.is(slash.status, 301);
  t.is(slash.headers.get('location'), '/api/v1/explorer');
  for (const path of ['/api/v1/explorer/nope.js', '/api/v1/explorer/index.html', '/api/v1/explorer/..%2Fexplorer-route.ts', '/api/v1/explorer/explorer.js/x']) {
    const missing = await client.get(path);
    t.is(missing.status, 404, path);
    t.is((missing.body as { errors: Array<{ code: string }> }).errors[0]!.code, 'not_found', path);
  }
});

test('schema.json is the schema as the request\'s guards allow it, never stored by a cache', async (t) => {
  const guest = await client.get('/api/v1/explorer/schema.json');
  const admin = await client.get('/api/v1/explorer/schema.json', ADMIN);
  t.is(guest.contentType, 'application/json; charset=utf-8');
  t.is(guest.headers.get('cache-control'), 'private, no-store');
  const read = (response: typeof guest) => response.body as ExplorerDocument;
  t.is(read(guest).mount, '');
  t.is(read(guest).namespace, '/api/v1');
  const employees = (doc: ExplorerDocument) => doc.schema.resources.find((r) => r.type === 'employees')!;
  t.false('salary' in employees(read(guest)).attributes);
  t.false('salary' in employees(read(guest)).filters);
  t.false('notes' in employees(read(guest)).relationships);
  t.false(read(guest).schema.resources.some((r) => r.type === 'notes'));
  t.false('/api/v1/notes' in read(guest).schema.endpoints);
  t.like(employees(read(admin)).attributes.salary, { readable: 'guarded', writable: 'guarded' });
  t.like(employees(read(admin)).relationships.notes, { guard: true });
  t.true(read(admin).schema.resources.some((r) => r.type === 'notes'));
});

test('the diagram, as SVG and Mermaid, draws what the request may see', async (t) => {
  const guest = await client.get('/api/v1/explorer/diagram.svg');
  t.is(guest.contentType, 'image/svg+xml; charset=utf-8');
  t.is(guest.headers.get('content-security-policy'), EXPLORER_CSP);
  t.notRegex(guest.text, /data-guarded|NoteResource/);
  const admin = await client.get('/api/v1/explorer/diagram.svg', ADMIN);
  t.regex(admin.text, /<g data-edge="EmployeeResource\.notes" data-guarded="true">/);
  const mermaid = await client.get('/api/v1/explorer/diagram.mmd', ADMIN);
  t.is(mermaid.contentType, 'text/plain; charset=utf-8');
  t.regex(mermaid.text, /^flowchart LR\n[\s\S]*r_EmployeeResource -\.->\|"notes \(polymorphic_has_many, guarded\)"\| r_NoteResource/);
});

test('off with explorer: false, and by default when NODE_ENV is production: the namespace\'s JSON:API 404', async (t) => {
  const routers = {
    off: muralRouter({ resources: gadgets, explorer: false, ...describedOnly }),
    production: withNodeEnv('production', () => muralRouter({ resources: gadgets, ...describedOnly })),
    forced: withNodeEnv('production', () => muralRouter({ resources: gadgets, explorer: true, ...describedOnly })),
    unset: withNodeEnv(undefined, () => muralRouter({ resources: gadgets, ...describedOnly })),
    development: withNodeEnv('development', () => muralRouter({ resources: gadgets, ...describedOnly })),
  };
  const statuses: Record<string, number> = {};
  for (const [name, router] of Object.entries(routers)) {
    const app = await serve(express().use(router));
    try {
      const page = await app.get('/api/explorer');
      statuses[name] = page.status;
      if (page.status === 404) t.is((page.body as { errors: Array<{ code: string }> }).errors[0]!.code, 'not_found');
      if (page.status === 404) t.is((await app.get('/api/explorer/schema.json')).status, 404);
    } finally {
      await app.close();
    }
  }
  t.deepEqual(statuses, { off: 404, production: 404, forced: 200, unset: 200, development: 200 });
});

test('under a mount path, and for Resources without a namespace', async (t) => {
  class Thing extends Resource {
    static {
      this.type = 'things';
      this.attribute('name', 'string');
    }
  }
  const mounted = await serve(express().use('/v2', muralRouter({ resources: gadgets, explorer: true, ...describedOnly })));
  const bare = await serve(express().use(muralRouter({ resources: [Thing], explorer: true, ...describedOnly })));
  try {
    const doc = (await mounted.get('/v2/api/explorer/schema.json')).body as ExplorerDocument;
    t.is(doc.mount, '/v2');
    t.is(doc.namespace, '/api');
    t.deepEqual(doc.schema.resources.map((r) => r.type), ['circles', 'gadgets', 'labels', 'makers', 'shapes', 'squares']);
    t.is((await mounted.get('/v2/api/explorer')).status, 200);
    t.is((await bare.get('/explorer')).status, 200);
    t.deepEqual(((await bare.get('/explorer/schema.json')).body as ExplorerDocument).schema.resources.map((r) => r.type), ['things']);
  } finally {
    await mounted.close();
    await bare.close();
  }
});
