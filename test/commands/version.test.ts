import test from 'ava';
import { build } from 'esbuild';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { runMural } from '../support/cli.ts';

/** `mural --version` prints the version in the package.json that ships with the CLI, with or without a config. */
const run = promisify(execFile);
const repo = process.cwd();
const { version } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string };
const nowhere = mkdtempSync(join(tmpdir(), 'mural-version-'));
test.after.always(() => rmSync(nowhere, { recursive: true, force: true }));

test('--version and -V print the version alone, in a directory without a config', async (t) => {
  for (const flag of ['--version', '-V']) {
    const result = await runMural([flag], nowhere);
    t.deepEqual(result, { code: 0, out: `${version}\n`, err: '' }, flag);
  }
  t.regex((await runMural(['--help'], nowhere)).out, /\n {2}-V, --version +print the version of Mural's CLI\n/);
});

test('the executable prints it, from this checkout\'s sources', async (t) => {
  const { stdout } = await run(process.execPath, [join(repo, 'bin/mural.js'), '--version'], { cwd: nowhere });
  t.is(stdout, `${version}\n`);
});

test('compiled as the build compiles it, the version is part of the code: no file is read for it', async (t) => {
  // bundled as scripts/build.ts bundles the CLI (CommonJS, dependencies external), somewhere no package.json of Mural's is near
  const out = resolve(repo, `tmp/version-${process.pid}/a/b/c/main.cjs`);
  t.teardown(() => rmSync(resolve(repo, `tmp/version-${process.pid}`), { recursive: true, force: true }));
  await build({ entryPoints: [join(repo, 'bin/main.ts')], outfile: out, bundle: true, packages: 'external', format: 'cjs', platform: 'node', target: 'node20.17', logLevel: 'error' });
  t.notRegex(readFileSync(out, 'utf8'), /require\([^)]*package\.json/);
  const script = `require(${JSON.stringify(out)}).main(['--version']).then((code) => { process.exitCode = code; })`;
  const { stdout } = await run(process.execPath, ['-e', script], { cwd: nowhere });
  t.is(stdout, `${version}\n`);
});
