import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { runMural } from '../support/cli.ts';

const run = promisify(execFile);
const repo = process.cwd();

/**
 * `mural generate resource` writes its test for the runner the project
 * uses: ava, Vitest, or Node's own `node:test` when it lists neither. Each
 * generated test is run by its runner here, and passes.
 */
function project(name: string, generator: Record<string, unknown>): string {
  // inside the repository, so generated code imports `mural` by its package name (tsconfig paths)
  const dir = resolve(repo, `test/generated-${name}-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: '../../tsconfig.json', compilerOptions: { strict: true }, include: ['**/*.ts'] }));
  writeFileSync(join(dir, 'mural.config.ts'), `import { defineConfig } from 'mural-cli';\nexport default defineConfig({ resources: [], generator: ${JSON.stringify(generator)} });\n`);
  return dir;
}

const dirs: string[] = [];
test.after.always(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const env = { ...process.env, DATABASE_URL: '' };

test('node: node:test and node:assert, run by node --test', async (t) => {
  const dir = project('node-runner', { testRunner: 'node' });
  dirs.push(dir);
  const generated = await runMural(['generate', 'resource', 'Gadget', 'name:string', 'size:integer'], dir);
  t.is(generated.code, 0, generated.err);
  const file = join(dir, 'test/resources/gadget-resource.test.ts');
  const source = readFileSync(file, 'utf8');
  t.regex(source, /^import \{ test, before, after \} from 'node:test';\nimport assert from 'node:assert\/strict';/);
  t.notRegex(source, /from 'ava'|\bt\.is\(/);
  await t.notThrowsAsync(run(join(repo, 'node_modules/.bin/tsc'), ['--noEmit', '-p', join(dir, 'tsconfig.json')], { cwd: repo }), 'compiles under --strict');
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', file], { cwd: repo, env, timeout: 60_000 });
  t.regex(stdout, /# pass 6\n/);
  t.regex(stdout, /# fail 0\n/);
});

test('vitest: its test, hooks and expect, run by vitest', async (t) => {
  const dir = project('vitest-runner', { testRunner: 'vitest' });
  dirs.push(dir);
  const generated = await runMural(['generate', 'resource', 'Widget', 'label:string', '-a', 'index', 'show', 'create'], dir);
  t.is(generated.code, 0, generated.err);
  const source = readFileSync(join(dir, 'test/resources/widget-resource.test.ts'), 'utf8');
  t.regex(source, /^import \{ test, beforeAll, afterAll, expect \} from 'vitest';/);
  t.regex(source, /expect\(response\.status\)\.toBe\(201\);/);
  await t.notThrowsAsync(run(join(repo, 'node_modules/.bin/tsc'), ['--noEmit', '-p', join(dir, 'tsconfig.json')], { cwd: repo }), 'compiles under --strict');
  // an installed Mural resolves by its package name; here, the sources stand in for it
  const sources: Record<string, string> = { mural: 'core/index.ts', 'mural/express': 'plugins/express/index.ts', 'mural/sequelize': 'plugins/sequelize/index.ts' };
  const alias = Object.entries(sources).map(([name, path]) => `{ find: /^${name.replace('/', '\\/')}$/, replacement: ${JSON.stringify(resolve(repo, path))} }`);
  writeFileSync(join(dir, 'vitest.config.mjs'), `export default { resolve: { alias: [${alias.join(', ')}] }, test: { include: ['test/**/*.test.ts'] } };\n`);
  const { stdout } = await run(join(repo, 'node_modules/.bin/vitest'), ['run', '--root', dir, '--reporter', 'verbose'], { cwd: dir, env: { ...env, NO_COLOR: '1' }, timeout: 90_000 });
  t.regex(stdout, /Tests {2}4 passed \(4\)/);
});

test('the default is the runner the test script runs, else the one package.json lists, else node:test', async (t) => {
  const outside = resolve(repo, `test/generated-default-runner-${process.pid}`);
  dirs.push(outside);
  for (const [manifest, expected] of [
    [{ devDependencies: { vitest: '^3' } }, /from 'vitest'/],
    [{ devDependencies: { ava: '^6' } }, /import test from 'ava'/],
    [{ dependencies: { express: '^5' } }, /from 'node:test'/],
    [{ scripts: { test: 'tsc && ava' }, devDependencies: { ava: '^6', vitest: '^3' } }, /import test from 'ava'/],
    [{ scripts: { test: 'node --import tsx --test' }, devDependencies: { vitest: '^3' } }, /from 'node:test'/],
  ] as const) {
    rmSync(outside, { recursive: true, force: true });
    const dir = project('default-runner', {});
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', ...manifest }));
    const generated = await runMural(['generate', 'resource', 'Thing', 'name:string'], dir);
    t.is(generated.code, 0, generated.err);
    t.regex(readFileSync(join(dir, 'test/resources/thing-resource.test.ts'), 'utf8'), expected, JSON.stringify(manifest));
  }
});
