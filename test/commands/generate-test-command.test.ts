import test, { type ExecutionContext } from 'ava';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runMural } from '../support/cli.ts';
import { extension, generate, generatedApp, runPrinted, type Runner, type Style } from '../support/generated-app.ts';
// CommonJS applications `require('mural')`: the bridge hands them this process's modules
import '../support/mural-package-bridge.ts';

/**
 * `generate resource` prints the command that runs the test it wrote, and
 * that very command runs it, in a TypeScript, an ES module and a CommonJS
 * application, for each runner. (On Node 20 `node --test test/` finds no
 * `.ts` file and loads no TypeScript: the command names the file and tsx.)
 */
const LABEL: Record<Style, string> = { typescript: 'a TypeScript', esm: 'an ES module', commonjs: 'a CommonJS' };

async function generateAndRun(t: ExecutionContext, style: Style, runner: Runner, expected: { command: string; passed: RegExp }): Promise<void> {
  const dir = generatedApp(t, style, runner);
  const printed = await generate(t, dir, 'Author', 'name:string', 'born:integer');
  t.is(printed, expected.command);
  const { code, output } = await runPrinted(dir, printed);
  t.is(code, 0, output);
  t.regex(output, expected.passed);
  t.false(existsSync(join(dir, 'dev.db')), 'nothing connected to the development database');
}

const file = (style: Style, runner: Runner = 'node') => `test/resources/author-resource.test.${runner === 'vitest' && style === 'commonjs' ? 'mjs' : extension(style)}`;

for (const style of ['typescript', 'esm', 'commonjs'] as const) {
  test(`node:test in ${LABEL[style]} application: node --test with the file${style === 'typescript' ? ', and tsx' : ''}`, async (t) => {
    const command = style === 'typescript' ? `node --import tsx --test ${file(style)}` : `node --test ${file(style)}`;
    await generateAndRun(t, style, 'node', { command, passed: /# pass 6\n# fail 0\n/ });
  });
}

for (const style of ['typescript', 'commonjs'] as const) {
  test(`vitest in ${LABEL[style]} application: vitest run with the file${style === 'commonjs' ? ', an ES module (Vitest cannot be required)' : ''}`, async (t) => {
    await generateAndRun(t, style, 'vitest', { command: `npx vitest run ${file(style, 'vitest')}`, passed: /Tests {2}6 passed \(6\)/ });
  });
}

test('ava in a TypeScript application that configures it for TypeScript: ava with the file', async (t) => {
  await generateAndRun(t, 'typescript', 'ava', { command: `npx ava ${file('typescript')}`, passed: /6 tests passed/ });
});

test('ava in a TypeScript application that does not configure it for TypeScript: the command, and what to configure', async (t) => {
  const dir = generatedApp(t, 'typescript', 'ava', { avaTypeScript: false });
  const generated = await runMural(['generate', 'resource', 'Author', 'name:string'], dir);
  t.is(generated.code, 0, generated.err);
  t.regex(generated.out, /\n {2}npx ava test\/resources\/author-resource\.test\.ts\nnote ava runs \.ts tests once package\.json's "ava" has "extensions": \{ "ts": "module" \} and "nodeArguments": \["--import=tsx"\]\n$/);
});

test('node:test in a TypeScript application whose test script cannot run TypeScript: the command, and why npm test missed it', async (t) => {
  const dir = generatedApp(t, 'typescript', 'node');
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...manifest, scripts: { test: 'node --test test/' } }));
  const generated = await runMural(['generate', 'resource', 'Author', 'name:string'], dir);
  t.is(generated.code, 0, generated.err);
  t.regex(generated.out, /\n {2}node --import tsx --test test\/resources\/author-resource\.test\.ts\nnote npm test \(node --test test\/\) runs no \.ts test on Node 20, which neither finds nor loads TypeScript; run them as above, with --import tsx and their paths\n$/);
});
