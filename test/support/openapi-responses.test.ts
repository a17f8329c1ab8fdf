import test from 'ava';
import express from 'express';
import { buildOpenApi } from '../../core/index.ts';
import { muralRouter } from '../../plugins/express/index.ts';
import { gadgetApi } from './gadget-api.ts';
import { serve } from './http.ts';
import { OpenApiResponses } from './openapi-responses.ts';

/**
 * The check every HTTP-suite response goes through: it must be able to
 * fail, for an undescribed route, method or status and for a body the
 * document does not describe.
 */

const api = gadgetApi();
const check = new OpenApiResponses(buildOpenApi(Object.values(api)), ['/api']);
const maker = { id: '1', type: 'makers', attributes: { name: 'Acme' } };
const notFound = { errors: [{ status: '404', code: 'not_found', title: 'Not Found', detail: 'No route' }] };

test('a described response with a body of the described shape passes', (t) => {
  t.is(check.problem('GET', '/api/makers?page[size]=1', 200, { data: [maker], meta: {} }), undefined);
  t.is(check.problem('GET', '/api/makers/1', 200, { data: maker, meta: {} }), undefined);
  t.is(check.problem('GET', '/api/Makers/1/', 200, { data: maker, meta: {} }), undefined, 'Express ignores case and a trailing slash');
  t.is(check.problem('DELETE', '/api/gadgets/1', 403, { errors: [{ status: '403', code: 'forbidden', title: 'Forbidden', detail: null }] }), undefined);
});

test('a status the operation does not describe fails', (t) => {
  t.regex(String(check.problem('GET', '/api/makers', 409, notFound)), /answered 409, which its OpenAPI operation MakerResource\.index does not describe/);
  t.regex(String(check.problem('PATCH', '/api/gadgets/1', 403, notFound)), /does not describe/, 'no guard covers update');
});

test('a body of the wrong shape fails', (t) => {
  t.regex(String(check.problem('GET', '/api/makers/1', 200, { data: { ...maker, attributes: { name: 7 } }, meta: {} })), /does not match .*MakerResource\.document/);
  t.regex(String(check.problem('GET', '/api/makers/1', 200, { data: { ...maker, type: 'gadgets' }, meta: {} })), /does not match/);
  t.regex(String(check.problem('GET', '/api/makers/1', 200, { data: maker })), /does not match/, 'meta is always rendered');
  t.regex(String(check.problem('GET', '/api/makers/1', 404, { errors: [] })), /does not match .*jsonapi\.error-document/);
});

test('under a namespace, a route or method the document lacks may only be the router\'s 404 (or 414)', (t) => {
  t.is(check.problem('GET', '/api/nothing', 404, notFound), undefined);
  t.is(check.problem('POST', '/api/makers', 404, notFound), undefined, 'makers take no POST');
  t.is(check.problem('GET', '/api/nothing', 414, { errors: [{ status: '414', code: 'uri_too_long', title: 'URI Too Long', detail: 'long' }] }), undefined);
  t.regex(String(check.problem('POST', '/api/makers', 201, { data: maker, meta: {} })), /is not in the OpenAPI document, yet it answered 201/);
  t.regex(String(check.problem('GET', '/api/nothing', 404, { message: 'no' })), /does not match/);
});

test('paths outside the router\'s namespaces are not its business', (t) => {
  t.is(check.problem('GET', '/health', 200, { meta: { status: 'ok' } }), undefined);
});

test('serve() checks every JSON:API response of the Mural routers an app mounts', async (t) => {
  const app = express();
  // a route of the app's own, under the router's namespace: nothing describes it
  app.get('/api/extra', (_req, res) => void res.type('application/vnd.api+json').send('{"meta":{}}'));
  app.get('/elsewhere', (_req, res) => void res.type('application/vnd.api+json').send('{"meta":{}}'));
  // the gadgets have no models: nothing here reads their records
  app.use(muralRouter({ resources: Object.values(api), checkResources: false }));
  const client = await serve(app);
  try {
    await t.throwsAsync(client.get('/api/extra'), { message: /^OpenAPI: GET \/api\/extra is not in the OpenAPI document, yet it answered 200/ });
    t.is((await client.get('/elsewhere')).status, 200);
    t.is((await client.get('/api/makers?filter[bogus]=1')).status, 400);
  } finally {
    await client.close();
  }
});
