import test from 'ava';
import { compiledImports, findCircles, importChain, layerOf, resolveSpecifier, sourceImports, upwardImports, type Graph } from './import-graph.ts';

/** The architecture checks are only as good as the graph and the circle finder under them. */

function graph(edges: Record<string, string[]>): Graph {
  return new Map(Object.entries(edges));
}

test('a graph without a loop has no circle, however it branches and joins', (t) => {
  t.deepEqual(findCircles(graph({ a: ['b', 'c'], b: ['d'], c: ['d'], d: [] })), []);
});

test('a circle is told as its files in import order, back to the first', (t) => {
  const circles = findCircles(graph({ entry: ['a'], a: ['b'], b: ['c'], c: ['a', 'leaf'], leaf: [] }));
  t.deepEqual(circles, [{ files: ['a', 'b', 'c'], loop: ['a', 'b', 'c', 'a'] }]);
});

test('a file importing itself is a circle; separate circles are found apart', (t) => {
  const circles = findCircles(graph({ a: ['a'], b: ['c'], c: ['b'], d: ['b'] }));
  t.deepEqual(circles.map((c) => c.loop), [['a', 'a'], ['b', 'c', 'b']]);
});

test('one circle per tangle, with the shortest loop through its first file', (t) => {
  const circles = findCircles(graph({ a: ['b', 'd'], b: ['c'], c: ['a'], d: ['a'] }));
  t.is(circles.length, 1);
  t.deepEqual(circles[0]!.files, ['a', 'b', 'c', 'd']);
  t.deepEqual(circles[0]!.loop, ['a', 'd', 'a']);
});

test('imports of modules outside the graph are no edges', (t) => {
  t.deepEqual(findCircles(graph({ a: ['node:fs', 'express'] })), []);
});

test('a long chain of imports does not overflow the stack', (t) => {
  const edges: Record<string, string[]> = {};
  for (let i = 0; i < 20_000; i++) edges[`f${i}`] = [`f${i + 1}`];
  edges.f20000 = ['f0'];
  const [circle] = findCircles(graph(edges));
  t.is(circle!.files.length, 20_001);
});

test('compiled as the build does, type-only imports vanish but an inline `type` import still loads its module', (t) => {
  const source = [
    "import type { A } from './a.ts';",
    "import { type B } from './b.ts';",
    "import { C, type D } from './c.ts';",
    "export type { E } from './e.ts';",
    "export * from './f.ts';",
    "import './g.ts';",
    "export async function later() { return import('./h.ts'); }",
    'export const value: A | B | D = C;',
  ].join('\n');
  t.deepEqual(compiledImports(source), { required: ['./b.ts', './c.ts', './f.ts', './g.ts'], dynamic: ['./h.ts'] });
});

test('read from the source, every import counts, types and multi-line lists included', (t) => {
  const source = [
    '// import { gone } from "./commented.ts";',
    "import type { A } from './a.ts';",
    'import {',
    '  B,',
    '  type C,',
    "} from './b.ts';",
    "export type { D } from './d.ts';",
    "import './e.ts';",
    "type F = import('./f.ts').F;",
  ].join('\n');
  t.deepEqual(sourceImports(source).sort(), ['./a.ts', './b.ts', './d.ts', './e.ts', './f.ts']);
});

test('specifiers resolve to shipped files, builtins and package names', (t) => {
  t.is(resolveSpecifier('core/query/build-query.ts', '../resource/resource-base.ts'), 'core/resource/resource-base.ts');
  t.is(resolveSpecifier('templates/resource.ts', 'mural/sequelize'), 'plugins/sequelize/index.ts');
  t.is(resolveSpecifier('core/context.ts', 'async_hooks'), 'node:async_hooks');
  t.is(resolveSpecifier('core/context.ts', 'node:async_hooks'), 'node:async_hooks');
  t.is(resolveSpecifier('commands/generate-resource.ts', '@inquirer/prompts'), '@inquirer/prompts');
  t.is(resolveSpecifier('plugins/sequelize/persistence.ts', 'sequelize/lib/errors'), 'sequelize');
});

test('an import to a higher layer is reported; sideways, downwards and unlayered ones are not', (t) => {
  const layers = [['low/', 'base.ts'], ['mid/'], ['top.ts']];
  t.is(layerOf(layers, 'low/deep/x.ts'), 0);
  t.is(layerOf(layers, 'lower.ts'), undefined);
  const edges = graph({ 'low/a.ts': ['low/b.ts', 'mid/c.ts', 'elsewhere.ts'], 'mid/c.ts': ['base.ts', 'mid/d.ts'], 'top.ts': ['mid/c.ts'] });
  t.deepEqual(upwardImports(edges, layers), [{ from: 'low/a.ts', to: 'mid/c.ts' }]);
});

test('an import chain is the shortest way to a wanted file, or none', (t) => {
  const edges = graph({ plugin: ['template', 'helper'], template: ['host'], helper: ['util'], util: ['host'], host: [] });
  t.deepEqual(importChain(edges, 'plugin', (file) => file === 'host'), ['plugin', 'template', 'host']);
  t.is(importChain(edges, 'helper', (file) => file === 'template'), undefined);
});
