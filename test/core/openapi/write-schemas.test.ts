import test from 'ava';
import { buildOpenApi, type JsonSchema } from '../../../core/index.ts';
import { connect } from '../../../examples/employee-directory/db/connection.ts';
import { defineModels } from '../../../examples/employee-directory/db/models/index.ts';
import { defineResources } from '../../../examples/employee-directory/resources/index.ts';
import { gadgetApi } from '../../support/gadget-api.ts';
import { OpenApiResponses } from '../../support/openapi-responses.ts';

/** The request bodies of create and update: writable members only, guards noted, sideposting described. */

const api = gadgetApi();
const document = buildOpenApi(Object.values(api));
const schemas = document.components.schemas;
const propertiesOf = (key: string) => schemas[key]!.properties as Record<string, JsonSchema>;

const sequelize = connect(':memory:');
test.after.always(() => sequelize.close());
const directory = new OpenApiResponses(buildOpenApi(Object.values(defineResources(defineModels(sequelize)))), []);

test('only writable attributes, typed as bodies may send them; a guarded one says so', (t) => {
  const attributes = propertiesOf('GadgetResource.write-attributes');
  t.deepEqual(Object.keys(attributes), ['name', 'count', 'code', 'kind', 'level', 'price', 'weight', 'active', 'released_on', 'specs', 'parts', 'tags', 'sizes', 'maker_id']);
  // a big_decimal or an integer_id may come as a number or as its text
  t.deepEqual(attributes.price!.anyOf, [{ type: 'number' }, { type: 'string', pattern: '^\\s*[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)\\s*$' }, { type: 'null' }]);
  t.deepEqual(attributes.maker_id, { anyOf: [{ type: 'integer' }, { type: 'string', pattern: '^\\s*[+-]?[0-9]+\\s*$' }, { type: 'null' }] });
  t.true(attributes.price!['x-mural-guard']);
  t.regex(String(attributes.price!.description), /otherwise 422 `unwritable_attribute`/);
  // `secret` is writable but left out of schema.json: the attributes stay open to it
  t.true(schemas['GadgetResource.write-attributes']!.additionalProperties);
  t.false(schemas['MakerResource.write-attributes']!.additionalProperties);
});

test('only writable relationships, each taking identifiers by id or temp-id with a method', (t) => {
  const relationships = propertiesOf('GadgetResource.write-relationships');
  t.deepEqual(Object.keys(relationships), ['maker', 'shapes', 'labels']);
  t.true(relationships.shapes!['x-mural-guard']);
  const shapes = (relationships.shapes!.properties as Record<string, JsonSchema>).data!;
  const identifier = shapes.items as JsonSchema;
  t.deepEqual((identifier.properties as Record<string, JsonSchema>).type, { enum: ['circles', 'shapes', 'squares'] });
  t.deepEqual(((identifier.properties as Record<string, JsonSchema>).method as JsonSchema).enum, ['create', 'update', 'destroy', 'disassociate']);
  t.deepEqual(identifier.anyOf, [{ required: ['id'] }, { required: ['temp-id'] }]);
  // a to-one relationship takes one identifier, or null to clear it
  const maker = (relationships.maker!.properties as Record<string, JsonSchema>).data!;
  t.deepEqual((maker.anyOf as JsonSchema[])[1], { type: 'null' });
});

test('create takes no id; update may repeat the URL\'s; both may sidepost any reachable record', (t) => {
  t.false('id' in propertiesOf('GadgetResource.create'));
  t.truthy(propertiesOf('GadgetResource.update').id);
  t.deepEqual(propertiesOf('GadgetResource.create').type, { const: 'gadgets' });
  const included = propertiesOf('GadgetResource.create-document').included!;
  t.deepEqual((included.items as JsonSchema).anyOf, ['CircleResource', 'GadgetResource', 'LabelResource', 'MakerResource', 'ShapeResource', 'SquareResource'].map((c) => ({ $ref: `#/components/schemas/${c}.update` })));
  const body = document.paths['/api/gadgets']!.post!.requestBody!;
  t.true(body.required);
  t.deepEqual(Object.keys(body.content), ['application/vnd.api+json', 'application/json']);
  t.deepEqual(body.content['application/json']!.schema, { $ref: '#/components/schemas/GadgetResource.create-document' });
  t.deepEqual(document.paths['/api/gadgets/{id}']!.patch!.requestBody!.content['application/vnd.api+json']!.schema, { $ref: '#/components/schemas/GadgetResource.update-document' });
});

test('the README\'s sideposting example is a valid create body; unknown and read-only members are not', (t) => {
  const ref = '#/components/schemas/EmployeeResource.create-document';
  const body = {
    data: {
      type: 'employees',
      attributes: { first_name: 'Grace', last_name: 'Hopper' },
      relationships: {
        positions: { data: [{ type: 'positions', 'temp-id': 'p-1', method: 'create' }] },
        teams: { data: [{ type: 'teams', id: '2' }] },
      },
    },
    included: [{ type: 'positions', 'temp-id': 'p-1', attributes: { title: 'Admiral' } }],
  };
  t.is(directory.mismatch(ref, body, 'create'), undefined);
  const unknown = structuredClone(body);
  (unknown.data.attributes as Record<string, unknown>).shoe_size = 44;
  t.regex(String(directory.mismatch(ref, unknown, 'create')), /additionalProperties/);
  const readOnly = structuredClone(body);
  (readOnly.data.attributes as Record<string, unknown>).created_at = '2020-01-01T00:00:00Z';
  t.truthy(directory.mismatch(ref, readOnly, 'create'));
  t.truthy(directory.mismatch(ref, { data: { ...body.data, id: '7' } }, 'create with an id'));
  t.is(directory.mismatch('#/components/schemas/EmployeeResource.update-document', { data: { type: 'employees', id: '1', attributes: { age: 37 } } }, 'update'), undefined);
});
