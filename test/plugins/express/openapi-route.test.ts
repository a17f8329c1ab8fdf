import test from 'ava';
import express from 'express';
import { readFileSync } from 'node:fs';
import { buildOpenApi, Resource } from '../../../core/index.ts';
import { API_INFO } from '../../../examples/employee-directory/api-info.ts';
import { createApp } from '../../../examples/employee-directory/app.ts';
import { connect } from '../../../examples/employee-directory/db/connection.ts';
import { muralRouter } from '../../../plugins/express/index.ts';
import { gadgetApi } from '../../support/gadget-api.ts';
import { serve } from '../../support/http.ts';

/** `muralRouter({ openapi })`: the document `mural openapi` writes, served as JSON. */

const api = gadgetApi();
const resources = Object.values(api);
// the gadgets have no models: these routers serve their description, never their records
const describedOnly = { checkResources: false } as const;

test('the example app serves at /api/v1/openapi.json exactly the committed openapi.json', async (t) => {
  const sequelize = connect(':memory:');
  const { app, resources: directory } = createApp(sequelize);
  const client = await serve(app);
  try {
    const response = await client.get('/api/v1/openapi.json', { accept: 'application/json' });
    t.is(response.status, 200);
    t.regex(response.contentType ?? '', /^application\/json/);
    t.deepEqual(response.body, JSON.parse(JSON.stringify(buildOpenApi(Object.values(directory), { info: API_INFO, operations: true }))));
    t.is(`${response.text}\n`, readFileSync('examples/employee-directory/openapi.json', 'utf8'));
  } finally {
    await client.close();
    await sequelize.close();
  }
});

test('openapi: true serves it under each namespace; without the option it is a JSON:API 404', async (t) => {
  const on = await serve(express().use(muralRouter({ resources, openapi: true, ...describedOnly })));
  const off = await serve(express().use(muralRouter({ resources, ...describedOnly })));
  try {
    const served = await on.get('/api/openapi.json');
    t.is(served.status, 200);
    t.deepEqual((served.body as { info: unknown }).info, { title: 'JSON:API', version: '1.0.0' });
    t.deepEqual(Object.keys((served.body as { paths: object }).paths), Object.keys(buildOpenApi(resources).paths));
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
