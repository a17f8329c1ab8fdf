import test from 'ava';
import { findCircles, fullGraph, importChain, layerOf, runtimeGraph, shippedFiles, upwardImports, type Graph } from '../support/import-graph.ts';
import { CLI_SHARED_PURE_MODULES, ENTRY_POINTS, packageOfSource } from '../../scripts/entry-points.ts';

/**
 * The shape of the shipped tree, as the compiled package loads it. The build
 * emits one CommonJS file per source, and a circular `require` hands one of
 * its modules out half-initialised; core must stay free of the HTTP, database
 * and CLI layers that plugins and commands add on top of it.
 */

const files = shippedFiles();
const loaded = runtimeGraph(files);
const named = fullGraph(files);

/** core's layers, lowest first: a file imports its own layer and those below, types included. */
const CORE_LAYERS: ReadonlyArray<readonly string[]> = [
  ['core/errors/', 'core/config.ts', 'core/async-scope.ts', 'core/context.ts', 'core/dictionary.ts', 'core/did-you-mean.ts', 'core/transaction.ts'],
  ['core/deadline.ts', 'core/query-params.ts', 'core/types/', 'core/adapter/', 'core/negotiation/', 'core/diagnostics/'],
  // the declarations, pure data: what a Resource is, never how it is queried or written
  ['core/resource/'],
  // row rules compiled into conditions, and checked on writes
  ['core/relationships/', 'core/query/', 'core/conditional/', 'core/rules/'],
  // checkResources: the declarations against their models, with the query layer's resolved filters
  ['core/scope/', 'core/schema/', 'core/check/'],
  // the OpenAPI description: schema.json's data, read further from the declarations
  ['core/openapi/', 'core/diagram/'],
  ['core/read/'],
  ['core/sideload/'],
  ['core/render/'],
  ['core/write/'],
  // a relationship of one record: its related records (read) and its members (written through core/write)
  ['core/related/'],
  // atomic operations: several writes of core/write and core/related in one transaction
  ['core/operations/'],
  // the entry points: Resource.all, find and build start the engines below
  ['core/proxy/'],
  ['core/index.ts'],
];

function described(violations: ReadonlyArray<{ from: string; to: string }>): string[] {
  return violations.map(({ from, to }) => `${from} → ${to}`);
}

function importsOf(graph: Graph, folder: string): Array<{ from: string; to: string }> {
  return [...graph].filter(([from]) => from.startsWith(folder)).flatMap(([from, targets]) => targets.map((to) => ({ from, to })));
}

test('the tree it reads is the shipped one', (t) => {
  for (const entry of [...ENTRY_POINTS.map((e) => e.source), 'bin/main.ts']) {
    t.true(files.includes(entry), entry);
  }
  t.false(files.some((file) => file.startsWith('test/') || file.endsWith('.d.ts')));
});

test('no shipped file takes part in a circle of runtime imports', (t) => {
  t.deepEqual(findCircles(loaded).map((circle) => circle.loop.join(' → ')), []);
});

test('core imports only core and Node builtins: no express, sequelize, commander, chalk, @inquirer or tsx, not even for types', (t) => {
  const outside = importsOf(named, 'core/').filter(({ to }) => !to.startsWith('core/') && !to.startsWith('node:'));
  t.deepEqual(described(outside), []);
});

test('every core file stands on a layer', (t) => {
  t.deepEqual(files.filter((file) => file.startsWith('core/') && layerOf(CORE_LAYERS, file) === undefined), []);
});

test('core/resource, the declarations, imports nothing above it, not even for types', (t) => {
  const upward = upwardImports(named, CORE_LAYERS).filter(({ from }) => from.startsWith('core/resource/'));
  t.deepEqual(described(upward), []);
});

test('every core layer imports only its own and the ones below, types included', (t) => {
  t.deepEqual(described(upwardImports(named, CORE_LAYERS)), []);
});

test('loading a plugin never loads the CLI, directly or through a template', (t) => {
  // a plugin may name the host's types (MuralPlugin) to implement them; loading commands/ would drag commander into an app
  const chains = files
    .filter((file) => file.startsWith('plugins/'))
    .map((file) => importChain(loaded, file, (reached) => reached.startsWith('commands/')))
    .filter((chain) => chain !== undefined);
  t.deepEqual(chains.map((chain) => chain.join(' → ')), []);
});

test('the runtime package never names a file of the CLI package, not even for types', (t) => {
  // its declarations would point into a package a production install does not have
  const crossing = [...named]
    .filter(([from]) => packageOfSource(from) === 'mural')
    .flatMap(([from, targets]) => targets.filter((to) => !to.startsWith('node:') && to.includes('/') && packageOfSource(to) === 'mural-cli').map((to) => ({ from, to })));
  t.deepEqual(described(crossing), []);
});

test('the CLI reaches the runtime through its public entry points only (and the pure functions it compiles in)', (t) => {
  const entrySources = new Set(ENTRY_POINTS.filter((e) => e.package === 'mural').map((e) => e.source));
  const crossing = [...named]
    .filter(([from]) => packageOfSource(from) === 'mural-cli')
    .flatMap(([from, targets]) => targets
      .filter((to) => /^(core|plugins)\//.test(to) && packageOfSource(to) === 'mural' && !entrySources.has(to) && !CLI_SHARED_PURE_MODULES.includes(to))
      .map((to) => ({ from, to })));
  t.deepEqual(described(crossing), []);
});
