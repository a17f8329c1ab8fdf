import test from 'ava';
import { buildOpenApi, buildSchema } from '../../../core/index.ts';
import { gadgetApi } from '../../support/gadget-api.ts';

/** `filter[<name>][<operator>]`: one parameter per filter and operator, typed as the filter's values are. */

const api = gadgetApi();
const document = buildOpenApi(Object.values(api));
const parameter = (key: string) => document.components.parameters[key]!;
const indexParameters = (path: string) => (document.paths[path]!.get!.parameters ?? []).map((p) => document.components.parameters[('$ref' in p ? p.$ref : '').split('/').pop()!]!);

test('every filter of schema.json and each of its operators is a parameter of the index', (t) => {
  const schema = buildSchema([api.GadgetResource]).resources.find((r) => r.type === 'gadgets')!;
  const expected = Object.entries(schema.filters).flatMap(([name, filter]) => [
    ...(filter.operators.includes('eq') ? [`filter[${name}]`] : []),
    ...filter.operators.map((op) => `filter[${name}][${op}]`),
  ]);
  // and, where the Resource has relationships, the related-record filters
  if ((schema.related_filters ?? []).length > 0) expected.push('filter[has]', 'filter[has_no]');
  const names = indexParameters('/api/gadgets').map((p) => p.name).filter((n) => n.startsWith('filter['));
  t.deepEqual(names, expected);
  t.true(names.includes('filter[count][not_gte]'));
  t.true(names.includes('filter[name][prefix]'));
  t.false(names.includes('filter[name][suffix]'), 'only: eq and prefix');
  // filters are the index's alone
  t.false(document.paths['/api/gadgets/{id}']!.get!.parameters!.some((p) => '$ref' in p && p.$ref.includes('.filter.')));
});

test('filter[has] and filter[has_no] are deepObject parameters keyed by paths through the Resource\'s relationships', (t) => {
  const schema = buildSchema([api.GadgetResource]).resources.find((r) => r.type === 'gadgets')!;
  const has = indexParameters('/api/gadgets').find((p) => p.name === 'filter[has]');
  if ((schema.related_filters ?? []).length === 0) {
    t.is(has, undefined, 'a Resource without relationships has nothing to filter by');
    return;
  }
  t.like(has, { in: 'query', style: 'deepObject', explode: true });
  const pattern = new RegExp(String((has!.schema.propertyNames as { pattern: string }).pattern));
  for (const name of schema.related_filters!) t.regex(`${name}.title`, pattern);
  t.notRegex('nothing.title', pattern);
  t.notRegex(schema.related_filters![0]!, pattern, 'a path ends with a filter of the related Resource');
  t.regex(indexParameters('/api/gadgets').find((p) => p.name === 'filter[has_no]')!.description!, /with no related record/);
});

test('values take the filter\'s type, as a comma list of at most maxFilterValues', (t) => {
  t.deepEqual(parameter('GadgetResource.filter.count.gte'), {
    name: 'filter[count][gte]',
    in: 'query',
    description: 'Records whose count is greater than or equal to the value.',
    style: 'form',
    explode: false,
    schema: { type: 'array', items: { type: 'integer' }, minItems: 1, maxItems: 1000 },
  });
  const items = (key: string) => (parameter(key).schema.items as Record<string, unknown>);
  t.deepEqual(items('GadgetResource.filter.code.eq'), { type: 'string', format: 'uuid' });
  t.deepEqual(items('GadgetResource.filter.released_on.lt'), { type: 'string', format: 'date' });
  t.deepEqual(items('GadgetResource.filter.seen_at.gt'), { type: 'string', format: 'date-time' });
  t.deepEqual(items('GadgetResource.filter.kind.eq'), { type: 'string', enum: ['small', 'large'] });
  t.deepEqual(items('GadgetResource.filter.level.eq'), { type: 'integer', enum: [1, 2, 3] });
  // an integer_id filters as the integer it is stored as; an array attribute by its elements
  t.deepEqual(items('GadgetResource.filter.maker_id.eq'), { type: 'integer' });
  t.deepEqual(items('GadgetResource.filter.tags.eq'), { type: 'string' });
  t.deepEqual(items('GadgetResource.filter.sizes.gt'), { type: 'integer' });
  t.is(items('GadgetResource.filter.price.eq').type, 'string');
});

test('a boolean or single filter takes one value; a hash filter JSON text', (t) => {
  t.deepEqual(parameter('GadgetResource.filter.active.eq').schema, { type: 'boolean' });
  t.is(parameter('GadgetResource.filter.active.eq').style, undefined);
  t.deepEqual(parameter('GadgetResource.filter.search.near').schema, { type: 'string' });
  t.deepEqual(parameter('GadgetResource.filter.specs.eq').schema, { type: 'string', contentMediaType: 'application/json' });
});

test('deny, allowNil, required, dependent and guards are in the schema or the description', (t) => {
  t.deepEqual(parameter('GadgetResource.filter.name').schema.items, { anyOf: [{ type: 'string', not: { enum: ['nobody'] } }, { const: 'null' }] });
  t.is(parameter('GadgetResource.filter.name').description, 'Shorthand for `filter[name][eq]`.');
  t.regex(String(parameter('GadgetResource.filter.maker_id.eq').description), /Required: every request must filter on maker_id\./);
  t.regex(String(parameter('GadgetResource.filter.code.eq').description), /Needs filter\[maker_id\] too\./);
  t.true(parameter('GadgetResource.filter.weight.gt')['x-mural-guard']);
  t.regex(String(parameter('GadgetResource.filter.weight.gt').description), /Guarded: available only when the guard allows \(400 otherwise\)\./);
  t.is(parameter('GadgetResource.filter.count.gt')['x-mural-guard'], undefined);
});

test('operators are described: built-in ones by meaning, text equality ignoring case, custom ones by name', (t) => {
  t.is(parameter('GadgetResource.filter.name.eq').description, 'Records whose name equals one of the values, ignoring case.');
  t.is(parameter('GadgetResource.filter.count.eq').description, 'Records whose count equals one of the values.');
  t.is(parameter('GadgetResource.filter.count.not_lt').description, 'Records whose count does not satisfy: is less than the value.');
  t.is(parameter('GadgetResource.filter.search.near').description, 'Records whose search matches the value(s) by the Resource\'s own "near" operator.');
});

test('a Resource whose filters are all built in still lists paging and shaping parameters', (t) => {
  const labels = buildOpenApi([api.LabelResource]);
  const refs = (labels.paths['/api/labels']!.get!.parameters ?? []).map((p) => ('$ref' in p ? p.$ref.split('/').pop() : ''));
  for (const key of ['LabelResource.filter.text.prefix', 'LabelResource.sort', 'LabelResource.page.size', 'LabelResource.include', 'GadgetResource.fields']) {
    t.true(refs.includes(key), key);
  }
});
