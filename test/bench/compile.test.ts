import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import test from 'ava';
import { compileBench, runArguments, type BuiltPackageDirectories } from '../../bench/compile.ts';
import { SERVER_NODE_FLAGS } from '../../scripts/server-node-flags.ts';
import { buildPackages } from '../../scripts/build.ts';

/**
 * `npm run bench` measures the compiled packages, as users run them: the
 * bench is bundled, and every import of Mural, by name or by a relative path
 * to an entry point, loads the build (plain Node, no tsx, cannot load the
 * sources). This file builds into a directory of its own, so that no other
 * test's build, nor a developer's, rewrites what it reads.
 */
const root = resolve(import.meta.dirname, '../..');
const scratch = join(root, 'node_modules', '.cache', `mural-bench-test-${process.pid}`);
let built: BuiltPackageDirectories;
// one bundle per script: the tests run concurrently
const compile = (script: string) => compileBench(script, { built, outfile: join(scratch, 'out', `${basename(script, '.ts')}.mjs`) });

test.before(async () => {
  mkdirSync(scratch, { recursive: true });
  built = await buildPackages(join(scratch, 'build'));
});
test.after.always(() => rmSync(scratch, { recursive: true, force: true }));

test('Mural by name and by relative path is the one compiled instance of the build', async (t) => {
  writeFileSync(join(scratch, 'beside.ts'), 'export const here: string = import.meta.url;\n');
  writeFileSync(
    join(scratch, 'probe.ts'),
    [
      "import { Resource } from 'mural';",
      "import { SequelizeAdapter } from 'mural/sequelize';",
      "import * as sources from '../../../core/index.ts';",
      "import { here } from './beside.ts';",
      `const dist = await import(${JSON.stringify(pathToFileURL(join(built.mural, 'esm/index.js')).href)});`,
      'console.log(JSON.stringify({ same: Resource === sources.Resource, compiled: Resource === dist.Resource, adapter: typeof SequelizeAdapter, here }));',
    ].join('\n'),
  );
  const compiled = await compile(join(scratch, 'probe.ts'));
  const output = JSON.parse(execFileSync(process.execPath, [compiled], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } }));
  t.deepEqual(output, { same: true, compiled: true, adapter: 'function', here: pathToFileURL(join(scratch, 'beside.ts')).href });
});

test('a bench importing Mural past its entry points does not compile', async (t) => {
  writeFileSync(join(scratch, 'deep.ts'), "import { ResourceBase } from '../../../core/resource/resource-base.ts';\nconsole.log(ResourceBase);\n");
  const error = await t.throwsAsync(compile(join(scratch, 'deep.ts')));
  t.regex(error!.message, /public entry points only/);
});

test('--run gives Node the server flags, the bench\'s own and those before --run, and the script what follows it', (t) => {
  t.deepEqual(runArguments('/tmp/bench.mjs', ['--enable-source-maps', '--run', 'docs/flame-graph.svg']), [
    ...SERVER_NODE_FLAGS, '--expose-gc', '--enable-source-maps', '/tmp/bench.mjs', 'docs/flame-graph.svg',
  ]);
  t.deepEqual(runArguments('/tmp/bench.mjs', ['--run']), [...SERVER_NODE_FLAGS, '--expose-gc', '/tmp/bench.mjs']);
});

test('with source maps on, a profile frame in the build names the TypeScript file and line it came from', async (t) => {
  // a function of the build's one CommonJS file, where V8 names it by path and line
  const file = join(built.mural, 'cjs', 'mural.js');
  writeFileSync(
    join(scratch, 'frames.ts'),
    [
      "import { readFileSync } from 'node:fs';",
      "import { Resource } from 'mural';",
      "import { remapToSources } from '../../../bench/flame/source-maps.ts';",
      `const file = ${JSON.stringify(file)};`,
      "const lineNumber = readFileSync(file, 'utf8').split('\\n').findIndex((line) => line.startsWith('function isoFromUtcText('));",
      "const callFrame = { functionName: 'isoFromUtcText', url: file, lineNumber, columnNumber: 0, scriptId: '0' };",
      'const [node] = remapToSources({ nodes: [{ id: 1, callFrame }], startTime: 0, endTime: 0, samples: [], timeDeltas: [] }).nodes;',
      'console.log(JSON.stringify({ loaded: typeof Resource, lineNumber, frame: node!.callFrame }));',
    ].join('\n'),
  );
  const compiled = await compile(join(scratch, 'frames.ts'));
  const run = (flags: string[]) => JSON.parse(execFileSync(process.execPath, [...flags, compiled], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } }));
  const source = readFileSync(join(root, 'plugins/sequelize/postgres-render-types.ts'), 'utf8').split('\n');
  const mapped = run(['--enable-source-maps']);
  t.true(mapped.lineNumber > 0, 'the build has the function');
  t.regex(mapped.frame.url, /^file:.*\/plugins\/sequelize\/postgres-render-types\.ts$/);
  t.true(source[mapped.frame.lineNumber]!.startsWith('export function isoFromUtcText('));
  const unmapped = run([]);
  t.is(unmapped.frame.url, file, 'without source maps the frame stays as V8 named it');
});
