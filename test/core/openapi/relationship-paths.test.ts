import test from 'ava';
import { buildOpenApi, type JsonSchema, type OperationObject } from '../../../core/index.ts';
import { gadgetApi } from '../../support/gadget-api.ts';

/**
 * The related and relationship endpoints: one pair of paths per relationship
 * of each endpoint that shows records, writes where it updates them, each
 * answering the documents and statuses the router does.
 */

const api = gadgetApi();
const document = buildOpenApi(Object.values(api));
const operation = (path: string, method: 'get' | 'post' | 'patch' | 'delete') => document.paths[path]?.[method] as OperationObject;
const schemaOf = (o: OperationObject, status: string) => (o.responses[status] as { content: Record<string, { schema: JsonSchema }> }).content['application/vnd.api+json']!.schema;
const parameterNames = (o: OperationObject) => (o.parameters ?? []).map((p) => document.components.parameters[('$ref' in p ? p.$ref : '').split('/').pop()!]!.name);

test('each relationship of a record that is shown has a related and a relationship path; writes where records are updated', (t) => {
  const below = (prefix: string) => Object.entries(document.paths)
    .filter(([path]) => path.startsWith(`${prefix}/{id}/`))
    .flatMap(([path, item]) => Object.keys(item).filter((k) => k !== 'parameters').map((m) => `${m} ${path.slice(prefix.length)}`));
  // makers are shown but never updated: reads only
  t.deepEqual(below('/api/makers').sort(), [
    'get /{id}/gadgets', 'get /{id}/partners', 'get /{id}/relationships/gadgets', 'get /{id}/relationships/partners',
  ]);
  const gadgets = below('/api/gadgets');
  for (const name of ['maker', 'favourite_shape', 'shapes', 'labels']) {
    t.true(gadgets.includes(`get /{id}/${name}`), name);
    for (const method of ['get', 'patch', 'post', 'delete']) t.true(gadgets.includes(`${method} /{id}/relationships/${name}`), `${method} ${name}`);
  }
  t.deepEqual(document.paths['/api/gadgets/{id}/relationships/maker']!.parameters, [{ name: 'id', in: 'path', required: true, description: 'The record\'s id.', schema: { type: 'string' } }]);
  // a polymorphic parent's records have the relationships of each child
  t.truthy(operation('/api/shapes/{id}/gadget', 'get'));
});

test('the related endpoint answers the related Resource\'s documents: a page, or one record or null', (t) => {
  t.deepEqual(schemaOf(operation('/api/makers/{id}/gadgets', 'get'), '200'), { $ref: '#/components/schemas/GadgetResource.collection-document' });
  t.deepEqual(schemaOf(operation('/api/gadgets/{id}/maker', 'get'), '200'), { $ref: '#/components/schemas/MakerResource.related-document' });
  t.deepEqual((document.components.schemas['MakerResource.related-document']!.properties as Record<string, JsonSchema>).data, {
    anyOf: [{ $ref: '#/components/schemas/MakerResource' }, { type: 'null' }],
  });
  // to a polymorphic parent: its records are any child
  t.deepEqual(schemaOf(operation('/api/gadgets/{id}/shapes', 'get'), '200'), { $ref: '#/components/schemas/ShapeResource.collection-document' });
  // a polymorphic belongs_to: any group's record, or null
  t.deepEqual(schemaOf(operation('/api/labels/{id}/labelled', 'get'), '200'), { $ref: '#/components/schemas/LabelResource.relationships.labelled.related-document' });
  t.deepEqual(document.components.schemas['LabelResource.relationships.labelled.related-document'], {
    anyOf: [{ $ref: '#/components/schemas/GadgetResource.related-document' }, { $ref: '#/components/schemas/MakerResource.related-document' }],
  });
});

test('the related endpoint reads the related Resource\'s index parameters; a to-one one has no pages', (t) => {
  const toMany = parameterNames(operation('/api/makers/{id}/gadgets', 'get'));
  for (const name of ['filter[count][gt]', 'sort', 'page[number]', 'page[size]', 'include', 'fields[gadgets]', 'extra_fields[gadgets]', 'stats[count]']) t.true(toMany.includes(name), name);
  const toOne = parameterNames(operation('/api/gadgets/{id}/maker', 'get'));
  t.true(toOne.includes('include'));
  t.false(toOne.includes('page[size]'));
  t.false(toOne.includes('page[number]'));
});

test('the relationship endpoint answers linkage, and reads filters, sort, pages and stats only', (t) => {
  const read = operation('/api/gadgets/{id}/relationships/shapes', 'get');
  t.deepEqual(schemaOf(read, '200'), { $ref: '#/components/schemas/GadgetResource.relationships.shapes.linkage-document' });
  const linkage = document.components.schemas['GadgetResource.relationships.shapes.linkage-document']!.properties as Record<string, JsonSchema>;
  t.deepEqual(linkage.data, {
    type: 'array',
    items: { type: 'object', required: ['type', 'id'], properties: { type: { enum: ['circles', 'shapes', 'squares'] }, id: { type: 'string' } }, additionalProperties: false },
  });
  t.deepEqual((linkage.links as JsonSchema).required, ['self', 'related']);
  const names = parameterNames(read);
  t.true(names.includes('filter[gadget_id][eq]'));
  t.true(names.includes('page[size]'));
  t.true(names.includes('stats[total]'));
  for (const refused of ['include', 'fields[shapes]']) t.false(names.includes(refused), refused);
});

test('writes take linkage and answer 204, or 200 with the linkage; POST and DELETE on a to-one relationship are 403s', (t) => {
  const add = operation('/api/gadgets/{id}/relationships/labels', 'post');
  t.deepEqual(Object.keys(add.responses), ['200', '204', '400', '404', '406', '409', '412', '413', '414', '415', '422', '500', '503']);
  t.deepEqual(add.requestBody!.content['application/vnd.api+json']!.schema, { $ref: '#/components/schemas/GadgetResource.relationships.labels.linkage-body' });
  const body = document.components.schemas['GadgetResource.relationships.maker.linkage-body']!.properties as Record<string, JsonSchema>;
  t.deepEqual((body.data!.anyOf as JsonSchema[])[1], { type: 'null' });
  const unsupported = operation('/api/gadgets/{id}/relationships/maker', 'delete');
  t.deepEqual(Object.keys(unsupported.responses), ['400', '403', '404', '406', '409', '412', '413', '414', '415', '422', '500', '503']);
  t.regex(unsupported.summary, /not supported \(403\)/);
  t.truthy(operation('/api/gadgets/{id}/relationships/maker', 'patch').responses['204']);
});

test('guards: a guarded relationship says what a refusal answers; one never writable says so', (t) => {
  const read = operation('/api/gadgets/{id}/shapes', 'get');
  t.true(read['x-mural-guard']);
  t.regex(String(read.description), /the 404 of a relationship that does not exist/);
  t.regex(String(operation('/api/gadgets/{id}/relationships/shapes', 'patch').description), /422 `unwritable_relationship`/);
  const fixed = operation('/api/gadgets/{id}/relationships/favourite_shape', 'patch');
  t.is(fixed['x-mural-guard'], undefined);
  t.regex(String(fixed.description), /Not writable: every write answers 422/);
  t.is(operation('/api/gadgets/{id}/maker', 'get')['x-mural-guard'], undefined);
  // the destroy guard covers no read or write of a relationship: no 403 there
  t.false('403' in operation('/api/gadgets/{id}/maker', 'get').responses);
});
