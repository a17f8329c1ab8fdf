import test from 'ava';
import { compileErrors, validate } from '@readme/openapi-parser';
import { buildOpenApi, buildSchema, type OpenApiDocument, type OperationObject } from '../../../core/index.ts';
import { connect } from '../../../examples/employee-directory/db/connection.ts';
import { defineModels } from '../../../examples/employee-directory/db/models/index.ts';
import { defineResources } from '../../../examples/employee-directory/resources/index.ts';
import { gadgetApi } from '../../support/gadget-api.ts';

/**
 * The whole document: valid OpenAPI 3.1 by a real validator, the same for
 * the same Resources, and in agreement with schema.json on what is served.
 */

const api = gadgetApi();
const resources = Object.values(api);
const document = buildOpenApi(resources);
const sequelize = connect(':memory:');
const directory = Object.values(defineResources(defineModels(sequelize)));
test.after.always(() => sequelize.close());

/** A copy, as a file would hold it: the validator dereferences in place. */
const asFile = (doc: OpenApiDocument) => JSON.parse(JSON.stringify(doc)) as Parameters<typeof validate>[0];

test('@readme/openapi-parser finds the example app\'s document valid, without warnings', async (t) => {
  const result = await validate(asFile(buildOpenApi(directory)));
  t.true(result.valid, result.valid ? '' : compileErrors(result));
  t.deepEqual(result.warnings, []);
  t.is(result.specification, 'OpenAPI');
});

test('@readme/openapi-parser finds a document of every type, relationship kind, polymorphism and guard valid', async (t) => {
  const result = await validate(asFile(document));
  t.true(result.valid, result.valid ? '' : compileErrors(result));
  t.deepEqual(result.warnings, []);
});

test('the same Resources give byte-identical JSON, with paths and components sorted', (t) => {
  t.is(JSON.stringify(buildOpenApi(resources)), JSON.stringify(document));
  for (const keys of [Object.keys(document.paths), Object.keys(document.components.schemas), Object.keys(document.components.parameters)]) {
    t.deepEqual(keys, [...keys].sort());
  }
  t.is(document.openapi, '3.1.0');
  t.deepEqual(document.info, { title: 'JSON:API', version: '1.0.0' });
  t.deepEqual(buildOpenApi(resources, { info: { title: 'Gadgets', version: '2.1.0' } }).info, { title: 'Gadgets', version: '2.1.0' });
});

test('every endpoint and action of schema.json is a path and operation, and no other record path is', (t) => {
  const schema = buildSchema(resources);
  const expected = Object.entries(schema.endpoints).flatMap(([path, { actions }]) =>
    Object.keys(actions).map((action) => `${{ index: 'get', create: 'post', show: 'get', update: 'patch', destroy: 'delete' }[action]} ${['index', 'create'].includes(action) ? path : `${path}/{id}`}`),
  );
  // the relationship endpoints below the records (relationship-paths.test.ts) aside
  const described = Object.entries(document.paths)
    .filter(([path]) => !path.includes('{id}/'))
    .flatMap(([path, item]) => Object.keys(item).filter((k) => k !== 'parameters').map((m) => `${m} ${path}`));
  t.deepEqual(described.sort(), expected.sort());
  // makers and labels serve index and show only
  t.deepEqual(Object.keys(document.paths['/api/makers']!), ['get']);
  t.deepEqual(Object.keys(document.paths['/api/makers/{id}']!), ['parameters', 'get']);
  t.deepEqual(Object.keys(document.paths['/api/labels/{id}']!), ['parameters', 'get']);
});

test('each operation answers its document, and the error statuses that action can give', (t) => {
  const op = (path: string, method: 'get' | 'post' | 'patch' | 'delete') => document.paths[path]![method] as OperationObject;
  const statuses = (o: OperationObject) => Object.keys(o.responses);
  t.deepEqual(statuses(op('/api/gadgets', 'get')), ['200', '304', '400', '406', '414', '500', '503']);
  t.deepEqual(statuses(op('/api/gadgets/{id}', 'get')), ['200', '304', '400', '404', '406', '414', '500', '503']);
  t.deepEqual(statuses(op('/api/gadgets', 'post')), ['201', '400', '404', '406', '409', '413', '414', '415', '422', '500', '503']);
  t.deepEqual(statuses(op('/api/gadgets/{id}', 'patch')), ['200', '400', '404', '406', '409', '412', '413', '414', '415', '422', '500', '503']);
  // the guard covers destroy only: 403 there and nowhere else; 409 for a record others refer to
  t.deepEqual(statuses(op('/api/gadgets/{id}', 'delete')), ['200', '400', '403', '404', '406', '409', '412', '413', '414', '422', '500', '503']);
  t.true(op('/api/gadgets/{id}', 'delete')['x-mural-guard']);
  // a create answers where the record now lives
  t.deepEqual(Object.keys((op('/api/gadgets', 'post').responses['201'] as { headers?: object }).headers ?? {}), ['Location']);
  t.is(op('/api/gadgets/{id}', 'patch')['x-mural-guard'], undefined);
  const schemaOf = (o: OperationObject, status: string) => (o.responses[status] as { content: Record<string, { schema: unknown }> }).content['application/vnd.api+json']!.schema;
  t.deepEqual(schemaOf(op('/api/gadgets', 'get'), '200'), { $ref: '#/components/schemas/GadgetResource.collection-document' });
  t.deepEqual(schemaOf(op('/api/gadgets', 'post'), '201'), { $ref: '#/components/schemas/GadgetResource.document' });
  t.deepEqual(schemaOf(op('/api/gadgets/{id}', 'delete'), '200'), { $ref: '#/components/schemas/jsonapi.meta-document' });
  t.deepEqual(op('/api/gadgets', 'get').responses['400'], { $ref: '#/components/responses/BadRequest' });
  // conditional requests: every GET answers an ETag or a 304, writes to a record take If-Match
  t.deepEqual(op('/api/gadgets/{id}', 'get').responses['304'], { $ref: '#/components/responses/NotModified' });
  t.deepEqual(Object.keys((op('/api/gadgets', 'get').responses['200'] as { headers?: object }).headers ?? {}), ['ETag', 'Cache-Control']);
  t.deepEqual(op('/api/gadgets/{id}', 'patch').responses['412'], { $ref: '#/components/responses/PreconditionFailed' });
  t.deepEqual(document.components.responses.ServiceUnavailable!.headers?.['Retry-After']?.schema, { type: 'integer', minimum: 0 });
  t.deepEqual(document.components.responses.Conflict!.content, { 'application/vnd.api+json': { schema: { $ref: '#/components/schemas/jsonapi.error-document' } } });
});

test('a polymorphic parent renders and accepts any of its children; each child has endpoints of its own', (t) => {
  const schemas = document.components.schemas;
  t.deepEqual(schemas['ShapeResource.variants']!.oneOf, [
    { $ref: '#/components/schemas/ShapeResource' },
    { $ref: '#/components/schemas/CircleResource' },
    { $ref: '#/components/schemas/SquareResource' },
  ]);
  t.deepEqual((schemas['ShapeResource.collection-document']!.properties as Record<string, unknown>).data, {
    type: 'array',
    items: { $ref: '#/components/schemas/ShapeResource.variants' },
  });
  t.deepEqual((schemas['ShapeResource.create-document']!.properties as Record<string, unknown>).data, {
    oneOf: ['ShapeResource', 'CircleResource', 'SquareResource'].map((c) => ({ $ref: `#/components/schemas/${c}.create` })),
  });
  // a child serves its own records only
  t.deepEqual((schemas['CircleResource.document']!.properties as Record<string, unknown>).data, { $ref: '#/components/schemas/CircleResource' });
  t.truthy(document.paths['/api/circles/{id}']?.patch);
});

test('tags name each served type, with its description', (t) => {
  t.deepEqual(document.tags.map((tag) => tag.name), ['circles', 'gadgets', 'labels', 'makers', 'shapes', 'squares']);
  t.deepEqual(document.tags.find((tag) => tag.name === 'gadgets'), { name: 'gadgets', description: 'A thing with an attribute of every type.' });
  t.deepEqual(document.paths['/api/gadgets']!.get!.tags, ['gadgets']);
});

test('operation ids are unique and name the Resource and action', (t) => {
  const ids = Object.values(document.paths).flatMap((item) => (['get', 'post', 'patch', 'delete'] as const).flatMap((m) => (item[m] ? [item[m]!.operationId] : [])));
  t.is(new Set(ids).size, ids.length);
  t.true(ids.includes('GadgetResource.index'));
  t.true(ids.includes('GadgetResource.destroy'));
});

test('a Resource reached only through a relationship is described, though it has no endpoint', (t) => {
  const only = buildOpenApi([api.LabelResource]);
  t.deepEqual(Object.keys(only.paths), ['/api/labels', '/api/labels/{id}', '/api/labels/{id}/labelled', '/api/labels/{id}/relationships/labelled']);
  for (const component of ['GadgetResource', 'MakerResource', 'CircleResource']) t.truthy(only.components.schemas[component], component);
  t.deepEqual(only.tags.map((tag) => tag.name), ['labels']);
});

test('schema.json and the document describe the same attributes and relationships', (t) => {
  for (const resource of buildSchema(resources).resources) {
    const object = document.components.schemas[resource.name]!.properties as Record<string, { properties: Record<string, unknown> }>;
    const readable = Object.entries(resource.attributes).filter(([name, a]) => name !== 'id' && a.readable !== false).map(([name]) => name);
    t.deepEqual(Object.keys(object.attributes!.properties), [...readable, ...Object.keys(resource.extra_attributes)], resource.name);
    t.deepEqual(Object.keys(object.relationships!.properties), Object.keys(resource.relationships), resource.name);
  }
});
