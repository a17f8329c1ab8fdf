import test from 'ava';
import { buildOpenApi, withContext, type JsonSchema, type Resource } from '../../../core/index.ts';
import { connect } from '../../../examples/employee-directory/db/connection.ts';
import { defineModels } from '../../../examples/employee-directory/db/models/index.ts';
import { seed } from '../../../examples/employee-directory/db/seed.ts';
import { defineResources } from '../../../examples/employee-directory/resources/index.ts';
import { gadgetApi } from '../../support/gadget-api.ts';
import { OpenApiResponses } from '../../support/openapi-responses.ts';
import { definePeople, personResource } from '../../support/people.ts';

/**
 * The resource objects as the document describes them, checked two ways: the
 * schema of each type and flag as written, and documents Mural really renders
 * (every type, nulls, guards, extra fields, includes, stats) validated
 * against it.
 */

const api = gadgetApi();
const document = buildOpenApi(Object.values(api));
const schemas = document.components.schemas;
const attributesOf = (component: string) =>
  ((schemas[component]!.properties as Record<string, JsonSchema>).attributes!.properties as Record<string, JsonSchema>);
const relationshipsOf = (component: string) =>
  ((schemas[component]!.properties as Record<string, JsonSchema>).relationships!.properties as Record<string, JsonSchema>);

const sequelize = connect(':memory:');
test.after.always(() => sequelize.close());

test('each type renders as its JSON Schema, and any attribute may be null', (t) => {
  const attributes = attributesOf('GadgetResource');
  const expected: Record<string, JsonSchema> = {
    name: { type: ['string', 'null'], description: 'What it is called.' },
    count: { type: ['integer', 'null'] },
    code: { type: ['string', 'null'], format: 'uuid' },
    kind: { type: ['string', 'null'], enum: ['small', 'large', null] },
    level: { type: ['integer', 'null'], enum: [1, 2, 3, null] },
    weight: { type: ['number', 'null'] },
    active: { type: ['boolean', 'null'] },
    released_on: { type: ['string', 'null'], format: 'date' },
    seen_at: { type: ['string', 'null'], format: 'date-time' },
    specs: { type: ['object', 'null'] },
    parts: { type: ['array', 'null'], items: {} },
    tags: { type: ['array', 'null'], items: { type: 'string' } },
    sizes: { type: ['array', 'null'], items: { type: 'integer' } },
  };
  for (const [name, schema] of Object.entries(expected)) t.deepEqual(attributes[name], schema, name);
  // big_decimal renders as a string of plain decimal notation, so no precision is lost
  t.deepEqual(attributes.price!.pattern, '^-?[0-9]+(\\.[0-9]+)?$');
  t.deepEqual(attributes.price!.type, ['string', 'null']);
  // filter-only and write-only attributes never render; the id is the object's own member
  for (const absent of ['maker_id', 'search', 'id']) t.false(absent in attributes, absent);
  t.deepEqual((schemas.GadgetResource!.properties as Record<string, JsonSchema>).id, { type: 'string' });
  t.deepEqual((schemas.GadgetResource!.properties as Record<string, JsonSchema>).type, { const: 'gadgets' });
});

test('guarded attributes and relationships say so, with x-mural-guard', (t) => {
  t.true(attributesOf('GadgetResource').price!['x-mural-guard']);
  t.regex(String(attributesOf('GadgetResource').price!.description), /^Guarded: rendered only when the guard allows/);
  t.true(relationshipsOf('GadgetResource').shapes!['x-mural-guard']);
  t.is(attributesOf('GadgetResource').count!['x-mural-guard'], undefined);
  t.is(relationshipsOf('GadgetResource').maker!['x-mural-guard'], undefined);
});

test('an extra attribute is described as rendered only on request', (t) => {
  t.deepEqual(attributesOf('GadgetResource').score, {
    type: ['integer', 'null'],
    description: 'Extra attribute: rendered only when requested with `extra_fields[gadgets]=score`.',
  });
});

test('attributes left out of schema.json still render, so only their Resource\'s attributes stay open', (t) => {
  t.is((schemas.GadgetResource!.properties as Record<string, JsonSchema>).attributes!.additionalProperties, true);
  t.is((schemas.MakerResource!.properties as Record<string, JsonSchema>).attributes!.additionalProperties, false);
});

test('linkage names the types a relationship leads to, a polymorphic parent\'s children included', (t) => {
  const data = (name: string) => (relationshipsOf('GadgetResource')[name]!.properties as Record<string, JsonSchema>).data;
  const identifier = (types: string[]) => ({
    type: 'object',
    required: ['type', 'id'],
    properties: { type: { enum: types }, id: { type: 'string' } },
    additionalProperties: false,
  });
  t.deepEqual(data('maker'), { anyOf: [identifier(['makers']), { type: 'null' }] });
  t.deepEqual(data('shapes'), { type: 'array', items: identifier(['circles', 'shapes', 'squares']) });
  t.deepEqual(data('labels'), { type: 'array', items: identifier(['labels']) });
  const labelled = (relationshipsOf('LabelResource').labelled!.properties as Record<string, JsonSchema>).data;
  t.deepEqual(labelled, { anyOf: [identifier(['gadgets', 'makers']), { type: 'null' }] });
});

test('a page of people, every type and null among them, validates against the collection document', async (t) => {
  const People = personResource(await definePeople(sequelize));
  const check = new OpenApiResponses(buildOpenApi([People]), []);
  const ref = '#/components/schemas/PersonResource.collection-document';
  const request = { path: '/people', query: 'page[size]=3&stats[total]=count', action: 'index' as const };
  const body = await People.all({ page: { size: 3 }, stats: { total: 'count' } }, undefined, { request }).toJsonapi();
  t.is(check.mismatch(ref, body, 'people'), undefined);
  t.truthy(body.links?.next);
  t.deepEqual(body.meta, { stats: { total: { count: 6 } } });
  // the check can fail: a number where a big_decimal string belongs
  const tampered = structuredClone(body) as { data: Array<{ attributes: Record<string, unknown> }> };
  tampered.data[0]!.attributes.salary = 70.03;
  t.regex(String(check.mismatch(ref, tampered, 'people')), /salary/);
});

test('employees with every relationship included, extra fields and stats validate; so does an admin\'s view', async (t) => {
  const models = defineModels(sequelize);
  await sequelize.sync();
  await seed(models, { employees: 12 });
  const resources = defineResources(models);
  const check = new OpenApiResponses(buildOpenApi(Object.values(resources)), []);
  const Employees: typeof Resource = resources.EmployeeResource;
  const params = {
    include: 'positions.department,current_position,teams.employees,notes.notable,tasks.milestones',
    extra_fields: { employees: 'vacation_days' },
    stats: { age: 'average,maximum,minimum,sum', total: 'count', positions: { total: 'count' } },
    fields: { departments: 'name' },
  };
  for (const role of ['guest', 'admin']) {
    const body = await withContext({ role }, () => Employees.all(params).toJsonapi());
    t.is(check.mismatch('#/components/schemas/EmployeeResource.collection-document', body, role), undefined, role);
    t.true((body.included ?? []).length > 0);
    const one = await withContext({ role }, () => Employees.find({ id: 1, include: 'tasks,notes' }).toJsonapi());
    t.is(check.mismatch('#/components/schemas/EmployeeResource.document', one, role), undefined, role);
  }
  const tasks = await resources.TaskResource.all({ include: 'employee' }).toJsonapi();
  t.is(check.mismatch('#/components/schemas/TaskResource.collection-document', tasks, 'tasks'), undefined);
  t.deepEqual([...new Set((tasks.data as Array<{ type: string }>).map((task) => task.type))].sort(), ['bugs', 'epics', 'features']);
});
