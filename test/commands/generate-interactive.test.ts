import test from 'ava';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openTerminal, type Terminal } from '../support/terminal.ts';

/**
 * `mural generate resource` with no arguments in a real terminal (tmux):
 * it asks for the name, the attributes and the actions.
 */
const repo = process.cwd();
const dir = resolve(repo, `test/generated-interactive-${process.pid}`);
let terminal: Terminal | undefined;

test.before(() => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'mural.config.ts'), `import { defineConfig } from 'mural-cli';\nexport default defineConfig({ resources: [] });\n`);
});
test.after.always(() => {
  terminal?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('asks for what is missing, checking each answer as it is given, then writes the files', async (t) => {
  terminal = openTerminal('mural', dir, `${process.execPath} ${join(repo, 'bin/mural.js')} generate resource`);
  const { waitFor, keys } = terminal;
  await waitFor('Resource name');
  keys('9lives', 'Enter');
  await waitFor('"9lives" is not a valid resource name; use letters and digits, starting with a letter, e.g. Employee');
  // the answer stays to be corrected: clear it and type the name
  keys(...Array<string>(6).fill('BSpace'), 'Gizmo', 'Enter');
  await waitFor('Attributes as name:type');
  keys('label:string founded:year', 'Enter');
  const refused = await waitFor(/Unknown type "year" in "founded:year"; did you mean "integer"\? types: string, integer, /);
  t.regex(refused, /label:string founded:year/, 'what was typed is still there');
  t.notRegex(refused, /Actions/, 'asked again before the next question');
  keys(...Array<string>(4).fill('BSpace'), 'integer', 'Enter');
  await waitFor('Actions');
  keys('Enter');
  const done = await waitFor('Run its test');
  t.regex(done, /create app\/resources\/gizmo-resource\.ts/);
  t.regex(done, /update app\/routes\.ts/);
  const resource = readFileSync(join(dir, 'app/resources/gizmo-resource.ts'), 'utf8');
  t.regex(resource, /this\.attribute\('label', 'string'\);\n {4}this\.attribute\('founded', 'integer'\);/);
  t.regex(resource, /\['index', 'show', 'create', 'update', 'destroy'\]/);
  t.true(existsSync(join(dir, 'test/resources/gizmo-resource.test.ts')));
});
