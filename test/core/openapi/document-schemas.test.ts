import test from 'ava';
import {
  buildOpenApi, ConflictError, DatabaseTimeout, Forbidden, InternalServerError, InvalidQueryError, RecordNotFound, RequestTooLarge, UnwritableError,
  ValidationFailed, type JsonSchema,
} from '../../../core/index.ts';
import { gadgetApi } from '../../support/gadget-api.ts';
import { OpenApiResponses } from '../../support/openapi-responses.ts';

/** The envelopes: error documents, `meta.stats`, pagination links, `included`. */

const api = gadgetApi();
const document = buildOpenApi(Object.values(api));
const check = new OpenApiResponses(document, []);
const schemas = document.components.schemas;

test('every error Mural raises renders as the described error document', (t) => {
  const errors = [
    new InvalidQueryError('unknown_filter', 'Unknown filter', { parameter: 'filter[x]' }),
    new ConflictError('Type mismatch', { pointer: '/data/type' }),
    new UnwritableError('attribute', 'seen_at', 'gadgets', '/data/attributes/seen_at'),
    new ValidationFailed([
      { location: { pointer: '/data' }, issue: { attribute: 'name', message: 'can\'t be blank', code: 'blank' } },
      { location: { pointer: null, relationship: { name: 'maker', type: 'makers', tempId: 't1' } }, issue: { message: 'is invalid', code: 'invalid' } },
    ]),
    new RecordNotFound('gadgets', '9'),
    new Forbidden('gadgets', 'destroy'),
    new RequestTooLarge(413, 'payload_too_large', 'too big', { pointer: '' }),
    new DatabaseTimeout(10_000),
    new InternalServerError(),
  ];
  for (const error of errors) {
    t.is(check.mismatch('#/components/schemas/jsonapi.error-document', error.toJsonapi(), error.name), undefined, error.name);
  }
  t.truthy(check.mismatch('#/components/schemas/jsonapi.error-document', { errors: [{ status: 404, code: 'not_found', title: 'Not Found' }] }, 'a numeric status'));
});

test('meta.stats holds the Resource\'s own stats and those of each type it may include', (t) => {
  const stats = ((schemas['GadgetResource.meta']!.properties as Record<string, JsonSchema>).stats!.properties as Record<string, JsonSchema>);
  t.deepEqual(Object.keys(stats), ['circles', 'count', 'gadgets', 'labels', 'makers', 'shapes', 'squares', 'total', 'weight']);
  t.deepEqual(stats.gadgets, { $ref: '#/components/schemas/GadgetResource.stat-values' });
  const own = schemas['GadgetResource.stat-values']!.properties as Record<string, JsonSchema>;
  t.deepEqual(own.total, { type: 'object', properties: { count: { type: 'integer', minimum: 0 } }, additionalProperties: false });
  t.deepEqual((own.count!.properties as Record<string, JsonSchema>).sum, { type: ['number', 'null'] });
  t.deepEqual((own.count!.properties as Record<string, JsonSchema>).maximum, { type: ['integer', 'null'] });
  t.deepEqual((own.weight!.properties as Record<string, JsonSchema>).median, { description: 'A custom calculation.' });
  const meta = { stats: { total: { count: 3 }, count: { sum: 12, maximum: 7 }, makers: { total: { count: 2 } } } };
  t.is(check.mismatch('#/components/schemas/GadgetResource.meta', meta, 'meta'), undefined);
  t.truthy(check.mismatch('#/components/schemas/GadgetResource.meta', { stats: { total: { average: 1 } } }, 'an undeclared calculation'));
});

test('an index document has pagination links; included holds any reachable record, nothing else', (t) => {
  const page = {
    data: [],
    meta: {},
    links: { self: '/api/makers?page[number]=1&page[size]=20', first: '/api/makers?page[number]=1&page[size]=20', last: '/api/makers?page[number]=1&page[size]=20' },
    included: [{ id: '4', type: 'circles', attributes: { radius: 1.5 }, relationships: { gadget: { meta: { included: false }, links: { related: '/api/gadgets?filter[id]=2' } } } }],
  };
  t.is(check.mismatch('#/components/schemas/MakerResource.collection-document', page, 'page'), undefined);
  t.truthy(check.mismatch('#/components/schemas/MakerResource.collection-document', { ...page, links: { next: '/x' } }, 'links without self'));
  t.truthy(check.mismatch('#/components/schemas/LabelResource.collection-document', { ...page, included: [{ id: '1', type: 'widgets', attributes: {} }] }, 'an unknown type'));
  t.is(check.mismatch('#/components/schemas/jsonapi.meta-document', { meta: {} }, 'destroy'), undefined);
});
