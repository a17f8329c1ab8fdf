import test from 'ava';
import { buildSchema, renderMermaid, resourceGraph } from '../../../core/index.ts';
import { gadgetApi } from '../../support/gadget-api.ts';

const text = renderMermaid(resourceGraph(buildSchema(Object.values(gadgetApi()))));
const lines = text.trimEnd().split('\n');

test('a flowchart with a box per Resource naming its class and type', (t) => {
  t.is(lines[0], 'flowchart LR');
  t.true(lines.includes('  r_GadgetResource["GadgetResource<br/>gadgets"]'));
  t.is(lines.filter((line) => /^ {2}r_\w+\["/.test(line)).length, 6);
});

test('relationships are labelled arrows; guarded ones dotted and said so; polymorphic children thick', (t) => {
  t.true(lines.includes('  r_GadgetResource -->|"maker (belongs_to)"| r_MakerResource'));
  t.true(lines.includes('  r_GadgetResource -.->|"shapes (has_many, guarded)"| r_ShapeResource'));
  t.true(lines.includes('  r_ShapeResource ==>|"variant"| r_CircleResource'));
  t.true(lines.includes('  r_MakerResource -->|"partners (many_to_many)"| r_MakerResource'));
  t.is(lines.filter((line) => line.includes('-.->')).length, 1);
});

test('names Mermaid would read as syntax are escaped', (t) => {
  const graph = { nodes: [{ name: 'A', type: 'a"<b>#' }], edges: [] };
  t.is(renderMermaid(graph), 'flowchart LR\n  r_A["A<br/>a#34;#60;b#62;#35;"]\n');
});
