import test from 'ava';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createApp, removeApp } from '../support/mural-app.ts';
import { typescriptShop } from '../support/shop-apps.ts';
import { openTerminal, type Terminal } from '../support/terminal.ts';

/**
 * `mural init` in a real terminal (tmux), where detection leaves choices:
 * two Sequelize instances, Resources in two places, and where to generate.
 */
let dir = '';
let terminal: Terminal | undefined;

test.before(() => {
  dir = createApp('init-interactive', {
    ...typescriptShop,
    'src/replica.ts': "import { Sequelize } from 'sequelize';\n\nexport const replica = new Sequelize('sqlite::memory:');\n",
    'src/reports.ts': "import { Resource } from 'mural';\n\nexport class ReportResource extends Resource {}\nexport const schedule = 'daily';\n",
  });
});
test.after.always(() => {
  terminal?.close();
  removeApp(dir);
});

test('asks which instance, which Resources and where to generate, then writes the config', async (t) => {
  terminal = openTerminal('mural-init', dir, `${process.execPath} ${join(process.cwd(), 'bin/mural.js')} init`);
  const { waitFor, keys } = terminal;
  t.regex(await waitFor('Which Sequelize instance does the application use?'), /src\/db\.ts#sequelize[^]*src\/replica\.ts#replica/);
  keys('Down', 'Enter');
  t.regex(await waitFor('Load Resources from:'), /src\/resources[^]*src\/reports\.ts/);
  keys('Down', 'Space', 'Enter');
  await waitFor('mural generate writes to src/resources, src/models, src/controllers, test/resources and src/routes.ts. Keep?');
  keys('n', 'Enter');
  await waitFor('Resources:');
  keys('src/generated', 'Enter');
  for (const label of ['Models:', 'Controllers:', 'Tests:', 'Routes file:']) {
    await waitFor(label);
    keys('Enter');
  }
  t.regex(await waitFor('These commands now work in this application:'), /create mural\.config\.ts/);
  const config = readFileSync(resolve(dir, 'mural.config.ts'), 'utf8');
  t.regex(config, /resources: \(\) => importResources\(import\.meta\.url, 'src\/resources', 'src\/generated'\),/, 'src/reports.ts was unticked');
  t.regex(config, /const \{ replica \} = await import\('\.\/src\/replica\.js'\);/);
  t.regex(config, /sequelize: 'src\/replica\.ts#replica',\n {4}baseResource: 'src\/resources\/application-resource\.ts#ApplicationResource',\n {4}resources: 'src\/generated',\n {4}models: 'src\/models',/);
});
