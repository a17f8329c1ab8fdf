import test from 'ava';
import { Ajv } from 'ajv';
import { jsonApiSchema } from './jsonapi-schema.ts';

/** The schema the HTTP suites check responses with must itself tell good documents from bad. */
const validate = new Ajv({ strict: false }).compile(jsonApiSchema);

test('it accepts the documents Mural renders', (t) => {
  t.true(validate({ data: [{ id: '1', type: 'employees', attributes: { first_name: 'Ada' }, relationships: { positions: { meta: { included: false } } } }], meta: {} }));
  t.true(validate({ data: null, meta: {} }));
  t.true(validate({ meta: {} }));
  t.true(validate({ errors: [{ status: '400', code: 'unknown_filter', title: 'Bad Request', detail: 'x', source: { parameter: 'filter[x]' } }] }));
});

test('it rejects what JSON:API forbids', (t) => {
  t.false(validate({ data: { id: 1, type: 'employees' } }), 'numeric id');
  t.false(validate({ data: { id: '1', type: 'employees', attributes: { id: '2' } } }), 'id among attributes');
  t.false(validate({ data: [], errors: [{ status: '400' }] }), 'data and errors together');
  t.false(validate({ data: { id: '1', type: 'x', relationships: { a: {} } } }), 'an empty relationship object');
  t.false(validate({ errors: [{ status: 400 }] }), 'a numeric status');
  t.false(validate({ data: [], extra: true }), 'an unknown top-level member');
});
