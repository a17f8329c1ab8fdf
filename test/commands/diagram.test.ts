import test from 'ava';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXAMPLE_CONFIG, runMural, useScratchDatabase } from '../support/cli.ts';

useScratchDatabase('diagram');
const scratch = mkdtempSync(join(tmpdir(), 'mural-diagram-'));
const config = ['--config', EXAMPLE_CONFIG];

test.serial('mural diagram prints the SVG of every Resource\'s relationships, guarded ones marked', async (t) => {
  const result = await runMural(['diagram', ...config]);
  t.is(result.code, 0, result.err);
  t.regex(result.out, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  t.is(result.out.match(/<g data-resource=/g)?.length, 10);
  t.regex(result.out, /<g data-edge="EmployeeResource\.notes" data-guarded="true">/);
  t.is(result.out.match(/data-guarded/g)?.length, 1);
});

test.serial('--format mermaid prints Mermaid text; an --out ending in .mmd writes it too', async (t) => {
  const printed = await runMural(['diagram', '--format', 'mermaid', ...config]);
  t.is(printed.code, 0, printed.err);
  t.regex(printed.out, /^flowchart LR\n/);
  t.true(printed.out.includes('  r_EmployeeResource -.->|"notes (polymorphic_has_many, guarded)"| r_NoteResource\n'));
  const out = join(scratch, 'resources.mmd');
  const written = await runMural(['diagram', '--out', out, ...config]);
  t.regex(written.out, /^Wrote .*resources\.mmd/);
  t.is(readFileSync(out, 'utf8'), printed.out);
});

test.serial('--out writes the SVG, the same bytes every time', async (t) => {
  const out = join(scratch, 'diagram.svg');
  t.is((await runMural(['diagram', '--out', out, ...config])).code, 0);
  const first = readFileSync(out, 'utf8');
  t.is((await runMural(['diagram', '--out', out, '--format', 'svg', ...config])).code, 0);
  t.is(readFileSync(out, 'utf8'), first);
  t.is(first, (await runMural(['diagram', ...config])).out);
});

test.serial('the README\'s docs/diagram.svg is the example\'s diagram of today', async (t) => {
  t.is(readFileSync('docs/diagram.svg', 'utf8'), (await runMural(['diagram', ...config])).out, 'run: DATABASE_URL= node bin/mural.js diagram --out ../../docs/diagram.svg --config examples/employee-directory/mural.config.ts');
});

test.serial('an unknown format is exit 2, naming the formats', async (t) => {
  const result = await runMural(['diagram', '--format', 'png', ...config]);
  t.is(result.code, 2);
  t.regex(result.err, /Unknown format "png"; formats: svg, mermaid/);
});
