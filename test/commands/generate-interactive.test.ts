import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * `mural generate resource` with no arguments in a real terminal (tmux):
 * it asks for the name, the attributes and the actions.
 */
const repo = process.cwd();
const dir = resolve(repo, `test/generated-interactive-${process.pid}`);
const session = `mural-${process.pid}`;
const tmux = (...args: string[]) => execFileSync('tmux', args, { encoding: 'utf8' });
const screen = () => tmux('capture-pane', '-p', '-t', session);

async function waitFor(text: string | RegExp, timeout = 20_000): Promise<string> {
  const started = Date.now();
  for (;;) {
    const shown = screen();
    if (typeof text === 'string' ? shown.includes(text) : text.test(shown)) return shown;
    if (Date.now() - started > timeout) throw new Error(`Timed out waiting for ${String(text)}; screen:\n${shown}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test.before(() => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'mural.config.ts'), `import { defineConfig } from 'mural/cli';\nexport default defineConfig({ resources: [] });\n`);
});
test.after.always(() => {
  try {
    tmux('kill-session', '-t', session);
  } catch {
    // already ended
  }
  rmSync(dir, { recursive: true, force: true });
});

test('asks for what is missing, then writes the files', async (t) => {
  tmux('new-session', '-d', '-s', session, '-x', '120', '-y', '30', '-c', dir, `${process.execPath} ${join(repo, 'bin/mural.js')} generate resource; sleep 30`);
  await waitFor('Resource name');
  tmux('send-keys', '-t', session, 'Gizmo', 'Enter');
  await waitFor('Attributes as name:type');
  tmux('send-keys', '-t', session, 'label:string weight:integer', 'Enter');
  await waitFor('Actions');
  tmux('send-keys', '-t', session, 'Enter');
  const done = await waitFor('update app/routes.ts');
  t.regex(done, /create app\/resources\/gizmo-resource\.ts/);
  const resource = readFileSync(join(dir, 'app/resources/gizmo-resource.ts'), 'utf8');
  t.regex(resource, /this\.attribute\('label', 'string'\);\n {4}this\.attribute\('weight', 'integer'\);/);
  t.regex(resource, /\['index', 'show', 'create', 'update', 'destroy'\]/);
  t.true(existsSync(join(dir, 'test/resources/gizmo-resource.test.ts')));
});
