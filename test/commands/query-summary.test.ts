import test from 'ava';
import { Resource, type JsonApiDocument, type QueryParams } from '../../core/index.ts';
import { pageSummary, withTotal } from '../../commands/query-summary.ts';

/**
 * `mural query`'s line under the table. The total comes from the Resource's
 * built-in count stat, asked with the query; a Resource that replaced it
 * with a calculation of its own (which may cost anything) gets no total.
 */
class GadgetResource extends Resource {
  static {
    this.attribute('name', 'string');
  }
}

class EstimatedResource extends Resource {
  static {
    this.type = 'estimates';
    this.stat('total', { count: () => 1000 });
  }
}

const page = (ids: string[], stats?: Record<string, Record<string, unknown>>): JsonApiDocument => ({
  data: ids.map((id) => ({ id, type: 'gadgets', attributes: {} })),
  meta: stats ? { stats } : {},
});

test('the built-in count is asked with the query, beside the stats asked for, and shown only as the summary', (t) => {
  const params: QueryParams = { stats: { age: 'average' } };
  t.is(withTotal(GadgetResource, params), 'added');
  t.deepEqual(params.stats, { age: 'average', total: 'count' });
  const document = page(['1', '2', '3'], { age: { average: 40 }, total: { count: 13 } });
  t.is(pageSummary(document, GadgetResource, 'added', { size: '3', cursor: false }), '3 of 13, page 1 of 5');
  t.deepEqual(document.meta, { stats: { age: { average: 40 } } });
});

test('a count the user asked for stays among the stats', (t) => {
  const params: QueryParams = { stats: { total: 'count' } };
  t.is(withTotal(GadgetResource, params), 'asked');
  const document = page(['1'], { total: { count: 1 } });
  t.is(pageSummary(document, GadgetResource, 'asked', { cursor: false }), '1 of 1, page 1 of 1');
  t.deepEqual(document.meta, { stats: { total: { count: 1 } } });
});

test('without the built-in count: the records on the page, and why there is no total', (t) => {
  const params: QueryParams = {};
  t.is(withTotal(EstimatedResource, params), 'unknown');
  t.deepEqual(params, {}, 'nothing asked');
  t.is(pageSummary(page(['1', '2', '3']), EstimatedResource, 'unknown', { number: '2', cursor: false }), '3 records, page 2 (no total: estimates has no built-in count stat to ask)');
  t.is(pageSummary(page(['1']), EstimatedResource, 'unknown', { cursor: true }), '1 record (no total: estimates has no built-in count stat to ask)');
});
