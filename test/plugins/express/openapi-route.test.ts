import test from 'ava';
import express, { type Request } from 'express';
import { readFileSync } from 'node:fs';
import { buildOpenApi, Resource, withContext, type OpenApiDocument } from '../../../core/index.ts';
import { API_INFO } from '../../../examples/employee-directory/api-info.ts';
import { createApp } from '../../../examples/employee-directory/app.ts';
import { connect } from '../../../examples/employee-directory/db/connection.ts';
import { muralRouter } from '../../../plugins/express/index.ts';
import { gadgetApi } from '../../support/gadget-api.ts';
import { serve } from '../../support/http.ts';
import { ADMIN } from '../../support/example-auth.ts';

/**
 * `muralRouter({ openapi })`: the document `mural openapi` writes, served as
 * JSON, by default as the request's context may use the API.
 */

const api = gadgetApi();
const resources = Object.values(api);
// the gadgets have no models: these routers serve their description, never their records
const describedOnly = { checkResources: false } as const;

test('the example app serves an admin exactly the committed openapi.json, and a guest the document of what a guest may use', async (t) => {
  const sequelize = connect(':memory:');
  const { app, resources: directory } = createApp(sequelize);
  const client = await serve(app);
  try {
    const admin = await client.get('/api/v1/openapi.json', { accept: 'application/json', ...ADMIN });
    t.is(admin.status, 200);
    t.regex(admin.contentType ?? '', /^application\/json/);
    t.deepEqual(admin.body, JSON.parse(JSON.stringify(buildOpenApi(Object.values(directory), { info: API_INFO, operations: true }))));
    t.is(`${admin.text}\n`, readFileSync('examples/employee-directory/openapi.json', 'utf8'));
    const guest = await client.get('/api/v1/openapi.json', { accept: 'application/json' });
    const guestView = withContext({}, () => buildOpenApi(Object.values(directory), { info: API_INFO, operations: true, view: 'caller' }));
    t.is(guest.text, JSON.stringify(guestView, null, 2));
    t.false(Object.keys((guest.body as OpenApiDocument).paths).some((path) => path.includes('notes')));
    t.false(guest.text.includes('salary'));
  } finally {
    await client.close();
    await sequelize.close();
  }
});

test('each view has its own ETag; a matching If-None-Match is a 304; without vary the answer is private', async (t) => {
  const sequelize = connect(':memory:');
  const { app } = createApp(sequelize);
  const client = await serve(app);
  try {
    const guest = await client.get('/api/v1/openapi.json');
    const admin = await client.get('/api/v1/openapi.json', ADMIN);
    const guestTag = guest.headers.get('etag')!;
    t.regex(guestTag, /^"[\w-]+"$/);
    t.not(admin.headers.get('etag'), guestTag);
    t.is((await client.get('/api/v1/openapi.json')).headers.get('etag'), guestTag, 'the same view, the same tag');
    t.is(guest.headers.get('cache-control'), 'private, no-cache', 'one role\'s document never reaches another through a shared cache');
    const revalidated = await client.get('/api/v1/openapi.json', { 'if-none-match': guestTag });
    t.is(revalidated.status, 304);
    t.is(revalidated.text, '');
    t.is((await client.get('/api/v1/openapi.json', { 'if-none-match': guestTag, ...ADMIN })).status, 200, 'an admin\'s document is another');
  } finally {
    await client.close();
    await sequelize.close();
  }
});

test('vary names the headers the context reads; view: \'full\' serves everyone the full document, cacheable by all', async (t) => {
  const sequelize = connect(':memory:');
  const { resources: directory } = createApp(sequelize);
  const resources = Object.values(directory);
  const context = (req: Request) => ({ role: req.header('X-Role') });
  const varied = await serve(express().use(muralRouter({ resources, context, vary: ['X-Role'], openapi: true })));
  const full = await serve(express().use(muralRouter({ resources, context, openapi: { view: 'full' } })));
  try {
    const guest = await varied.get('/api/v1/openapi.json');
    t.is(guest.headers.get('cache-control'), 'no-cache');
    t.is(guest.headers.get('vary'), 'X-Role');
    t.false(guest.text.includes('salary'));
    const everyone = await full.get('/api/v1/openapi.json');
    const admin = await full.get('/api/v1/openapi.json', { 'X-Role': 'admin' });
    t.is(everyone.text, admin.text);
    t.is(everyone.text, JSON.stringify(buildOpenApi(resources), null, 2));
    t.is(everyone.headers.get('cache-control'), 'no-cache');
    t.is(everyone.headers.get('vary'), null);
  } finally {
    await varied.close();
    await full.close();
    await sequelize.close();
  }
});

test('a context function that fails is the request\'s JSON:API 500, not the process\'s', async (t) => {
  const context = () => {
    throw new Error('no session store');
  };
  const client = await serve(express().use(muralRouter({ resources, context, openapi: true, ...describedOnly })));
  try {
    const response = await client.get('/api/openapi.json');
    t.is(response.status, 500);
    t.is((response.body as { errors: Array<{ status: string }> }).errors[0]!.status, '500');
  } finally {
    await client.close();
  }
});

test('openapi: true serves it under each namespace; without the option it is a JSON:API 404', async (t) => {
  const on = await serve(express().use(muralRouter({ resources, openapi: true, ...describedOnly })));
  const off = await serve(express().use(muralRouter({ resources, ...describedOnly })));
  try {
    const served = await on.get('/api/openapi.json');
    t.is(served.status, 200);
    t.deepEqual((served.body as { info: unknown }).info, { title: 'JSON:API', version: '1.0.0' });
    t.deepEqual(Object.keys((served.body as { paths: object }).paths), Object.keys(withContext({}, () => buildOpenApi(resources, { view: 'caller' })).paths));
    const absent = await off.get('/api/openapi.json');
    t.is(absent.status, 404);
    t.is((absent.body as { errors: Array<{ code: string }> }).errors[0]!.code, 'not_found');
  } finally {
    await on.close();
    await off.close();
  }
});

test('a path and info of one\'s own; Resources without a namespace serve /openapi.json', async (t) => {
  class Thing extends Resource {
    static {
      this.type = 'things';
      this.attribute('name', 'string');
    }
  }
  const custom = await serve(express().use(muralRouter({ resources, openapi: { path: '/docs/api.json', info: { title: 'Gadgets', version: '3.0.0' } }, ...describedOnly })));
  const bare = await serve(express().use(muralRouter({ resources: [Thing], openapi: true, ...describedOnly })));
  try {
    const document = await custom.get('/docs/api.json');
    t.is(document.status, 200);
    t.deepEqual((document.body as { info: unknown }).info, { title: 'Gadgets', version: '3.0.0' });
    t.is((await custom.get('/api/openapi.json')).status, 404);
    const root = await bare.get('/openapi.json');
    t.is(root.status, 200);
    t.deepEqual(Object.keys((root.body as { paths: object }).paths), ['/things', '/things/{id}']);
  } finally {
    await custom.close();
    await bare.close();
  }
});

test('mounted under a prefix, the document names that prefix as its server', async (t) => {
  const client = await serve(express().use('/v2', muralRouter({ resources, openapi: true, ...describedOnly })));
  try {
    const response = await client.get('/v2/api/openapi.json');
    t.is(response.status, 200);
    t.deepEqual((response.body as { servers: unknown }).servers, [{ url: '/v2' }]);
    t.truthy((response.body as { paths: Record<string, unknown> }).paths['/api/gadgets']);
  } finally {
    await client.close();
  }
});
