import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runMural } from '../support/cli.ts';

/**
 * `mural --version` prints the version of mural-cli's manifest, with or
 * without a config. (Compiled, from the packed tarball, in
 * test/package/packed-tarball.test.ts.)
 */
const run = promisify(execFile);
const repo = process.cwd();
const { version } = JSON.parse(readFileSync(join(repo, 'packages/mural-cli/package.json'), 'utf8')) as { version: string };
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
