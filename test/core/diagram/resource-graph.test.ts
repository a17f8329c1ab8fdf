import test from 'ava';
import { buildSchema, resourceGraph } from '../../../core/index.ts';
import { gadgetApi } from '../../support/gadget-api.ts';

/** The graph behind both diagrams: a node per Resource, an edge per relationship and target. */

const schema = buildSchema(Object.values(gadgetApi()));
const graph = resourceGraph(schema);
const edge = (from: string, name: string) => graph.edges.filter((e) => e.from === from && e.name === name);

test('a node per Resource, sorted by name, with its type', (t) => {
  t.deepEqual(graph.nodes, [
    { name: 'CircleResource', type: 'circles' },
    { name: 'GadgetResource', type: 'gadgets' },
    { name: 'LabelResource', type: 'labels' },
    { name: 'MakerResource', type: 'makers' },
    { name: 'ShapeResource', type: 'shapes' },
    { name: 'SquareResource', type: 'squares' },
  ]);
});

test('each relationship is an edge with its kind, its cardinality and whether a guard decides it', (t) => {
  t.deepEqual(edge('GadgetResource', 'maker'), [{ from: 'GadgetResource', to: 'MakerResource', name: 'maker', kind: 'belongs_to', guarded: false, single: true }]);
  t.deepEqual(edge('GadgetResource', 'shapes'), [{ from: 'GadgetResource', to: 'ShapeResource', name: 'shapes', kind: 'has_many', guarded: true, single: false }]);
  t.like(edge('GadgetResource', 'favourite_shape')[0], { kind: 'has_one', single: true, guarded: false });
  // a Resource related to itself
  t.like(edge('MakerResource', 'partners')[0], { to: 'MakerResource', kind: 'many_to_many', single: false });
});

test('a polymorphic belongs_to leads to each of its Resources; a polymorphic parent to each child', (t) => {
  t.deepEqual(edge('LabelResource', 'labelled').map((e) => e.to), ['GadgetResource', 'MakerResource']);
  t.deepEqual(
    graph.edges.filter((e) => e.kind === 'variant').map((e) => `${e.from}→${e.to} ${e.name}`),
    ['ShapeResource→CircleResource circles', 'ShapeResource→SquareResource squares'],
  );
});

test('a relationship to a Resource the schema leaves out is left out too', (t) => {
  const without = { resources: schema.resources.filter((r) => r.name !== 'ShapeResource') };
  const partial = resourceGraph(without);
  t.false(partial.nodes.some((n) => n.name === 'ShapeResource'));
  t.false(partial.edges.some((e) => e.to === 'ShapeResource' || e.from === 'ShapeResource'));
  t.true(partial.edges.some((e) => e.to === 'MakerResource'));
});

test('edges are sorted, so the same Resources give the same graph', (t) => {
  const keys = graph.edges.map((e) => `${e.from} ${e.name} ${e.to}`);
  t.deepEqual(keys, [...keys].sort());
  t.deepEqual(resourceGraph(buildSchema(Object.values(gadgetApi()))), graph);
});
