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

test('asks for what is missing, then writes the files', async (t) => {
  terminal = openTerminal('mural', dir, `${process.execPath} ${join(repo, 'bin/mural.js')} generate resource`);
  const { waitFor, keys } = terminal;
  await waitFor('Resource name');
  keys('Gizmo', 'Enter');
  await waitFor('Attributes as name:type');
  keys('label:string weight:integer', 'Enter');
  await waitFor('Actions');
  keys('Enter');
  const done = await waitFor('update app/routes.ts');
  t.regex(done, /create app\/resources\/gizmo-resource\.ts/);
  const resource = readFileSync(join(dir, 'app/resources/gizmo-resource.ts'), 'utf8');
  t.regex(resource, /this\.attribute\('label', 'string'\);\n {4}this\.attribute\('weight', 'integer'\);/);
  t.regex(resource, /\['index', 'show', 'create', 'update', 'destroy'\]/);
  t.true(existsSync(join(dir, 'test/resources/gizmo-resource.test.ts')));
});
