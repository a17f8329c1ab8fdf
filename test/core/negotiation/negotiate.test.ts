import test from 'ava';
import { NotAcceptable, UnsupportedMediaType } from '../../../core/errors/index.ts';
import { formatMediaType, jsonapiMember, negotiateAccept, negotiateContentType } from '../../../core/negotiation/index.ts';

const ATOMIC = 'https://jsonapi.org/ext/atomic';
const JSONAPI = 'application/vnd.api+json';

test('no Accept, or an empty one, takes the plain media type', (t) => {
  t.deepEqual(negotiateAccept(undefined), { ext: [] });
  t.deepEqual(negotiateAccept('  '), { ext: [] });
});

test('media types and parameter names are case-insensitive; quoted values may hold commas and semicolons', (t) => {
  t.deepEqual(negotiateAccept(`Application/VND.API+JSON; EXT="${ATOMIC}"`, [ATOMIC]), { ext: [ATOMIC] });
  t.deepEqual(negotiateAccept(`${JSONAPI}; profile="https://a.example/x,y;z", text/plain`), { ext: [] });
});

test('the most preferred usable instance decides the extensions applied', (t) => {
  t.deepEqual(negotiateAccept(`${JSONAPI}; q=0.2, ${JSONAPI}; ext="${ATOMIC}"`, [ATOMIC]), { ext: [ATOMIC] });
  t.deepEqual(negotiateAccept(`${JSONAPI}; ext="${ATOMIC}"; q=0.2, ${JSONAPI}`, [ATOMIC]), { ext: [] });
});

test('q=0 excludes a range; a malformed weight or parameter drops the range', (t) => {
  t.throws(() => negotiateAccept(`${JSONAPI}; q=0`), { instanceOf: NotAcceptable });
  t.throws(() => negotiateAccept('*/*; q=2'), { instanceOf: NotAcceptable });
  t.throws(() => negotiateAccept('*/*; q'), { instanceOf: NotAcceptable });
  t.throws(() => negotiateAccept('not-a-media-type'), { instanceOf: NotAcceptable });
  t.deepEqual(negotiateAccept('garbage, */*;q=0.001'), { ext: [] });
});

test('accept-extensions after q are not media type parameters', (t) => {
  t.deepEqual(negotiateAccept(`${JSONAPI}; q=0.9; level=1`), { ext: [] });
});

test('a 406 names the Accept header', (t) => {
  const error = t.throws(() => negotiateAccept(`${JSONAPI}; charset=utf-8`), { instanceOf: NotAcceptable })!;
  t.like(error.toJsonapiErrors()[0], { status: '406', code: 'not_acceptable', source: { header: 'Accept' } });
});

test('Content-Type: JSON:API with ext and profile only, extensions the endpoint applies, required ones present', (t) => {
  t.deepEqual(negotiateContentType(JSONAPI), { ext: [] });
  t.deepEqual(negotiateContentType('application/json; charset=UTF-8'), { ext: [] });
  t.deepEqual(negotiateContentType(`${JSONAPI}; ext="${ATOMIC}"`, [ATOMIC], [ATOMIC]), { ext: [ATOMIC] });
  for (const header of [undefined, '', 'text/plain', `${JSONAPI}; charset=utf-8`, `${JSONAPI}; ext="${ATOMIC}"`, `${JSONAPI}, ${JSONAPI}`]) {
    t.throws(() => negotiateContentType(header), { instanceOf: UnsupportedMediaType }, String(header));
  }
  t.throws(() => negotiateContentType(JSONAPI, [ATOMIC], [ATOMIC]), { instanceOf: UnsupportedMediaType });
  t.throws(() => negotiateContentType('application/json', [ATOMIC], [ATOMIC]), { instanceOf: UnsupportedMediaType });
  const error = t.throws(() => negotiateContentType('text/plain'), { instanceOf: UnsupportedMediaType })!;
  t.like(error.toJsonapiErrors()[0], { status: '415', source: { header: 'Content-Type' } });
});

test('the response media type and jsonapi member name the extensions applied, and nothing else', (t) => {
  t.is(formatMediaType({ ext: [] }), JSONAPI);
  t.is(formatMediaType({ ext: [ATOMIC] }), `${JSONAPI}; ext="${ATOMIC}"`);
  t.deepEqual(jsonapiMember({ ext: [] }), { version: '1.1' });
  t.deepEqual(jsonapiMember({ ext: [ATOMIC] }), { version: '1.1', ext: [ATOMIC] });
});
