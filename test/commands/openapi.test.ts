import test from 'ava';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXAMPLE_CONFIG, runMural, useScratchDatabase } from '../support/cli.ts';

useScratchDatabase('openapi');
const scratch = mkdtempSync(join(tmpdir(), 'mural-openapi-'));
const config = ['--config', EXAMPLE_CONFIG];
const committed = 'examples/employee-directory/openapi.json';

test.serial('mural openapi prints the document, with the config\'s info', async (t) => {
  const result = await runMural(['openapi', ...config]);
  t.is(result.code, 0, result.err);
  const document = JSON.parse(result.out);
  t.is(document.openapi, '3.1.0');
  t.is(document.info.title, 'Employee directory');
  t.truthy(document.paths['/api/v1/employees/{id}'].patch);
  t.is(result.out, readFileSync(committed, 'utf8'));
});

test.serial('--out writes the same file every time', async (t) => {
  const out = join(scratch, 'openapi.json');
  const first = await runMural(['openapi', '--out', out, ...config]);
  t.is(first.code, 0);
  t.regex(first.out, /^Wrote .*openapi\.json/);
  const text = readFileSync(out, 'utf8');
  t.is((await runMural(['openapi', '--out', out, ...config])).code, 0);
  t.is(readFileSync(out, 'utf8'), text);
  t.true(text.endsWith('}\n'));
});

test.serial('the committed example document is up to date', async (t) => {
  const result = await runMural(['openapi', '--check', ...config]);
  t.is(result.code, 0, result.out + result.err);
  t.regex(result.out, /examples\/employee-directory\/openapi\.json is up to date\./);
});

test.serial('--check fails on a stale document, naming the first line that differs', async (t) => {
  const stale = join(scratch, 'stale.json');
  const lines = readFileSync(committed, 'utf8').split('\n');
  lines[3] = '    "title": "Something else",';
  writeFileSync(stale, lines.join('\n'));
  const result = await runMural(['openapi', '--check', '--out', stale, ...config]);
  t.is(result.code, 1);
  t.regex(result.err, /stale\.json is out of date \(first difference at line 4\); run mural openapi --out .*stale\.json/);
  t.is(readFileSync(stale, 'utf8'), lines.join('\n'), 'a check never writes');
});

test.serial('--check without a document is exit 2', async (t) => {
  const result = await runMural(['openapi', '--check', '--out', join(scratch, 'none.json'), ...config]);
  t.is(result.code, 2);
  t.regex(result.err, /No OpenAPI document at .*none\.json; run mural openapi --out/);
});
