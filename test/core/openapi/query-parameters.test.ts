import test from 'ava';
import { buildOpenApi, Resource, type OperationObject } from '../../../core/index.ts';
import { gadgetApi } from '../../support/gadget-api.ts';

/** sort, page, include, fields, extra_fields and stats: which action reads which, and what each accepts. */

const api = gadgetApi();
const document = buildOpenApi(Object.values(api));
const parameter = (key: string) => document.components.parameters[key]!;
const keysOf = (operation: OperationObject | undefined) => (operation?.parameters ?? []).map((p) => ('$ref' in p ? p.$ref.split('/').pop()! : p.name));

test('sort: each sortable name and its descending form, one-way sorts one way only, deep sorts by path', (t) => {
  const sort = parameter('GadgetResource.sort');
  t.is(sort.name, 'sort');
  t.is(sort.style, 'form');
  t.false(sort.explode);
  const [names, deep] = (sort.schema.items as { anyOf: Array<{ enum?: string[]; pattern?: string }> }).anyOf;
  t.true(names!.enum!.includes('name') && names!.enum!.includes('-name'));
  t.true(names!.enum!.includes('-count'));
  t.false(names!.enum!.includes('count'), 'count sorts descending only');
  t.false(names!.enum!.includes('maker_id'), 'not sortable');
  t.regex('-positions.title', new RegExp(deep!.pattern!));
  t.notRegex('title', new RegExp(deep!.pattern!));
});

test('page: number from 1, size up to the Resource\'s maximum with its default; per-parent sizes for included types', (t) => {
  t.deepEqual(parameter('GadgetResource.page.number'), { name: 'page[number]', in: 'query', description: 'The page, from 1.', schema: { type: 'integer', minimum: 1, default: 1 } });
  t.deepEqual(parameter('GadgetResource.page.size').schema, { type: 'integer', minimum: 0, maximum: 50, default: 10 });
  t.deepEqual(parameter('MakerResource.page.size').schema, { type: 'integer', minimum: 0, maximum: 1000, default: 20 });
  t.is(parameter('ShapeResource.page.per-parent').name, 'page[shapes][size]');
});

test('include: the relationship paths up to the include depth, with examples breadth first', (t) => {
  const include = parameter('GadgetResource.include');
  const items = include.schema.items as { pattern: string; examples: string[] };
  t.is(include.schema.maxItems, 30);
  t.deepEqual(items.examples, ['maker', 'favourite_shape', 'shapes', 'labels', 'maker.gadgets', 'maker.partners', 'favourite_shape.gadget', 'shapes.gadget', 'labels.labelled']);
  const pattern = new RegExp(items.pattern);
  for (const path of ['maker', 'shapes.gadget', 'labels.labelled']) t.regex(path, pattern);
  // gadgets allow two levels, and only their own relationships start a path
  for (const path of ['maker.gadgets.maker', 'owner', 'makers']) t.notRegex(path, pattern);
  t.regex(String(include.description), /at most 2 levels deep and 30 relationships/);
});

test('fields and extra_fields for every type a response may hold; stats for the Resource\'s own', (t) => {
  t.deepEqual(parameter('GadgetResource.fields').schema.items, {
    enum: ['id', 'name', 'count', 'code', 'kind', 'level', 'price', 'weight', 'active', 'released_on', 'seen_at', 'specs', 'parts', 'tags', 'sizes', 'maker', 'favourite_shape', 'shapes', 'labels'],
  });
  t.deepEqual(parameter('GadgetResource.extra-fields'), {
    name: 'extra_fields[gadgets]',
    in: 'query',
    description: 'Extra attributes of gadgets to render, which are left out unless asked for.',
    style: 'form',
    explode: false,
    schema: { type: 'array', items: { enum: ['score'] } },
  });
  t.deepEqual(parameter('GadgetResource.stats.count').schema, { type: 'array', minItems: 1, items: { enum: ['sum', 'maximum'] } });
  t.deepEqual(parameter('GadgetResource.stats.weight').schema.items, { enum: ['median'] });
  t.deepEqual(parameter('GadgetResource.stats.total').schema.items, { enum: ['count'] });
});

test('index reads everything; show shapes one record; writes shape the written record; destroy reads nothing', (t) => {
  const index = keysOf(document.paths['/api/gadgets']!.get);
  const show = keysOf(document.paths['/api/gadgets/{id}']!.get);
  const create = keysOf(document.paths['/api/gadgets']!.post);
  const types = ['Circle', 'Gadget', 'Label', 'Maker', 'Shape', 'Square'];
  const shaping = ['GadgetResource.include', ...types.map((r) => `${r}Resource.fields`), 'GadgetResource.extra-fields', ...types.map((r) => `${r}Resource.meta-fields`)];
  t.deepEqual(create, shaping);
  t.deepEqual(keysOf(document.paths['/api/gadgets/{id}']!.patch), [...shaping, 'header.If-Match', 'header.If-None-Match.write']);
  const shown = [...shaping, 'GadgetResource.stats.total', 'GadgetResource.stats.count', 'GadgetResource.stats.weight', ...types.map((r) => `${r}Resource.page.per-parent`)];
  t.deepEqual(show, [...shown, 'header.If-None-Match', 'header.If-Match.read']);
  t.deepEqual(index.filter((k) => !k.includes('.filter.')), ['GadgetResource.sort', 'GadgetResource.page.number', 'GadgetResource.page.size', ...shown, 'header.If-None-Match', 'header.If-Match.read']);
  t.deepEqual(keysOf(document.paths['/api/gadgets/{id}']!.delete), ['header.If-Match', 'header.If-None-Match.write']);
  t.deepEqual(document.paths['/api/gadgets/{id}']!.parameters, [{ name: 'id', in: 'path', required: true, description: 'The record\'s id.', schema: { type: 'string' } }]);
});

test('no parameter name appears twice in an operation', (t) => {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of ['get', 'post', 'patch', 'delete'] as const) {
      const names = keysOf(item[method]).map((key) => parameter(key).name);
      t.is(new Set(names).size, names.length, `${method} ${path}`);
    }
  }
});

test('page[after] and page[before] where the adapter pages by keyset, and not beside a paginate block', (t) => {
  class KeysetAdapter {
    keyset(scope: unknown) {
      return scope;
    }
  }
  class KeyedResource extends Resource {
    static {
      this.type = 'keyed';
      this.endpointNamespace = '/api';
      this.adapter = KeysetAdapter as never;
    }
  }
  class NumberedResource extends KeyedResource {
    static {
      this.type = 'numbered';
      this.paginate((scope: unknown) => scope);
    }
  }
  const keyed = buildOpenApi([KeyedResource, NumberedResource]);
  const index = (path: string) => keysOf(keyed.paths[path]!.get).filter((k) => k.includes('.page.'));
  t.deepEqual(index('/api/keyed'), ['KeyedResource.page.number', 'KeyedResource.page.size', 'KeyedResource.page.after', 'KeyedResource.page.before', 'KeyedResource.page.per-parent']);
  t.deepEqual(index('/api/numbered'), ['NumberedResource.page.number', 'NumberedResource.page.size', 'NumberedResource.page.per-parent']);
  const after = Object.values(keyed.components.parameters).find((p) => p.name === 'page[after]')!;
  t.deepEqual(after.schema, { type: 'string' });
  t.regex(after.description!, /opaque cursor/);
});
