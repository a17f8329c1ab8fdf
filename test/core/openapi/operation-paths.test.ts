import test from 'ava';
import { compileErrors, validate } from '@readme/openapi-parser';
import { buildOpenApi, type OpenApiDocument } from '../../../core/index.ts';
import { connect } from '../../../examples/employee-directory/db/connection.ts';
import { defineModels } from '../../../examples/employee-directory/db/models/index.ts';
import { defineResources } from '../../../examples/employee-directory/resources/index.ts';
import { OpenApiResponses } from '../../support/openapi-responses.ts';

/** `POST {ns}/operations`, described only when the router serves it. */

const sequelize = connect(':memory:');
const resources = defineResources(defineModels(sequelize));
const directory = Object.values(resources);
test.after.always(() => sequelize.close());
const ATOMIC = 'application/vnd.api+json;ext="https://jsonapi.org/ext/atomic"';
const asFile = (doc: OpenApiDocument) => JSON.parse(JSON.stringify(doc)) as Parameters<typeof validate>[0];

test('without operations: true there is no operations path and none of its schemas', (t) => {
  const document = buildOpenApi(directory);
  t.false(Object.keys(document.paths).some((path) => path.endsWith('/operations')));
  t.false(Object.keys(document.components.schemas).some((name) => name.startsWith('atomic.')));
});

test('with it: one POST per namespace, taking and answering the atomic media type, valid OpenAPI 3.1', async (t) => {
  const document = buildOpenApi(directory, { operations: true });
  const operation = document.paths['/api/v1/operations']!.post!;
  t.deepEqual(Object.keys(operation.requestBody!.content), [ATOMIC]);
  const ok = operation.responses['200'] as { content: Record<string, unknown> };
  t.deepEqual(Object.keys(ok.content), [ATOMIC]);
  t.deepEqual(Object.keys(operation.responses).sort(), ['200', '400', '403', '404', '406', '409', '412', '413', '414', '415', '422', '500', '503']);
  const invalid = operation.responses['422'] as { content: Record<string, unknown> };
  t.deepEqual(Object.keys(invalid.content), [ATOMIC, 'application/vnd.api+json'], 'its own errors in the extension\'s media type');
  t.deepEqual(operation.responses['415'], { $ref: '#/components/responses/UnsupportedMediaType' }, 'the router\'s, in the plain one');
  const result = await validate(asFile(document));
  t.true(result.valid, result.valid ? '' : compileErrors(result));
  t.deepEqual(result.warnings, []);
});

test('a result is a record of a Resource the endpoint writes, with its lid, or {}', (t) => {
  const check = new OpenApiResponses(buildOpenApi(directory, { operations: true }), ['/api/v1']);
  const employee = { id: '1', type: 'employees', lid: 'ada', attributes: { first_name: 'Ada' }, relationships: {} };
  const jsonapi = { version: '1.1', ext: ['https://jsonapi.org/ext/atomic'] };
  t.is(check.problem('POST', '/api/v1/operations', 200, { 'atomic:results': [{ data: employee }, {}], jsonapi }, ATOMIC), undefined);
  t.regex(check.problem('POST', '/api/v1/operations', 200, { 'atomic:results': [{ data: { ...employee, type: 'wizards' } }], jsonapi }, ATOMIC) ?? '', /does not match/);
  t.regex(check.problem('POST', '/api/v1/operations', 200, { 'atomic:results': [], jsonapi }, ATOMIC) ?? '', /does not match/);
  t.regex(check.problem('POST', '/api/v1/operations', 200, { data: employee }, ATOMIC) ?? '', /does not match/);
  const unsupported = { errors: [{ status: '415', code: 'unsupported_media_type', title: 'Unsupported Media Type', detail: 'x', source: { header: 'Content-Type' } }] };
  t.is(check.problem('POST', '/api/v1/operations', 415, unsupported), undefined);
});

test('a ref or resource object names only types some endpoint writes', (t) => {
  const { schemas } = buildOpenApi(directory, { operations: true }).components;
  const types = ((schemas['atomic.ref'] as { properties: { type: { enum: string[] } } }).properties.type.enum);
  t.deepEqual(types, ['bugs', 'departments', 'employees', 'epics', 'features', 'milestones', 'notes', 'positions', 'tasks', 'teams']);
});
