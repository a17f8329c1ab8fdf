import test, { type ExecutionContext } from 'ava';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { QueryTypes, Sequelize } from 'sequelize';
import { runMural } from '../support/cli.ts';
// CommonJS applications `require('mural')`: the bridge hands them this process's modules
import '../support/mural-package-bridge.ts';
import { avaIn, createApp, muralIn, removeApp } from '../support/mural-app.ts';
import { commonjsShop, esmShop, seedShop, typescriptShop } from '../support/shop-apps.ts';

/** A shop with its database seeded, removed after the test. */
async function shop(t: ExecutionContext, name: string, files: Record<string, string>): Promise<string> {
  const dir = createApp(`init-${name}`, files);
  t.teardown(() => removeApp(dir));
  await seedShop(join(dir, 'shop.db'));
  return dir;
}

const run = promisify(execFile);
const read = (dir: string, path: string) => readFileSync(join(dir, path), 'utf8');

/**
 * `query` in this process: the config loads, imports the Resources, reads the
 * application's database and closes its connection. A command closes the
 * application's one Sequelize instance when done, so every later command on
 * the same application runs in a process of its own (`muralIn`), as from a shell.
 */
async function queryWorks(t: ExecutionContext, dir: string): Promise<void> {
  const query = await runMural(['query', 'products', '--filter', 'price[gte]=20', '--sort', 'name', '--include', 'category', '--format', 'jsonapi'], dir);
  t.is(query.code, 0, query.err);
  const document = JSON.parse(query.out) as { data: Array<{ attributes: { name: string } }>; included: Array<{ type: string; attributes: { name: string } }> };
  t.deepEqual(document.data.map((r) => r.attributes.name), ['Rake', 'Saw']);
  t.deepEqual(document.included.map((r) => `${r.type}:${r.attributes.name}`).sort(), ['categories:Garden', 'categories:Tools']);
}

/**
 * `generate resource Widget` writes into the application, on its connection;
 * `schema export` then loads the new Resource, and the generated tests pass.
 * No command created a table: the database has the application's tables only.
 * The generated tests run on a database of their own: a `widgets` table the
 * development database already had keeps its rows.
 */
async function generatedResourceWorks(t: ExecutionContext, dir: string, testFile: string): Promise<void> {
  const generated = await runMural(['generate', 'resource', 'Widget', 'label:string'], dir);
  t.is(generated.code, 0, generated.err);
  const exported = await muralIn(dir, 'schema', 'export');
  t.is(exported.out, `Wrote 3 resources to ${join(dir, 'schema.json')}\n`, exported.err);
  t.true(JSON.parse(read(dir, 'schema.json')).resources.some((r: { type: string }) => r.type === 'widgets'));
  t.deepEqual(await inShop(dir, tables), ['categories', 'products'], 'no command syncs the database');
  await inShop(dir, async (db) => {
    await db.query('CREATE TABLE widgets (id INTEGER PRIMARY KEY, label TEXT, made_by TEXT)');
    await db.query("INSERT INTO widgets VALUES (7, 'kept', 'a migration')");
  });
  const before = await inShop(dir, widgets);
  const tests = await avaIn(dir, testFile);
  t.is(tests.code, 0, tests.out + tests.err);
  t.regex(tests.out, /6 tests passed/);
  t.deepEqual(await inShop(dir, tables), ['categories', 'products', 'widgets']);
  t.deepEqual(await inShop(dir, widgets), before, 'the development table keeps its columns and rows');
}

async function inShop<T>(dir: string, work: (db: Sequelize) => Promise<T>): Promise<T> {
  const sequelize = new Sequelize({ dialect: 'sqlite', storage: join(dir, 'shop.db'), logging: false });
  try {
    return await work(sequelize);
  } finally {
    await sequelize.close();
  }
}

async function tables(db: Sequelize): Promise<string[]> {
  const rows = await db.query<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name", { type: QueryTypes.SELECT });
  return rows.map((r) => r.name);
}

function widgets(db: Sequelize): Promise<unknown[]> {
  return db.query("SELECT sql FROM sqlite_master WHERE name = 'widgets' UNION ALL SELECT id || ' ' || label || ' ' || made_by FROM widgets", { type: QueryTypes.SELECT });
}

test('TypeScript ES modules: finds the instance, the Resources and the base Resource; every command then works', async (t) => {
  const dir = await shop(t, 'typescript', typescriptShop);
  const result = await runMural(['init'], dir);
  t.is(result.code, 0, result.err);
  t.regex(result.out, /^create mural\.config\.ts\n\nThese commands now work in this application:\n {2}npx mural guards +every guarded/);
  t.regex(result.out, /npx mural query categories --per 5 +query a Resource in-process/);
  t.regex(result.out, /`generate resource` registers each controller in src\/routes\.ts; mount its `routes` in your Express app once: app\.use\(routes\)\./);
  t.is(
    read(dir, 'mural.config.ts'),
    `import { defineConfig, importResources } from 'mural-cli';

/**
 * Written by \`mural init\`. Commands import the Resources on demand from these
 * files and directories (Resources added to a directory are picked up), and
 * close the connection when done; nothing here creates, syncs or seeds tables.
 */
export default defineConfig({
  resources: () => importResources(import.meta.url, 'src/resources'),
  async close() {
    const { sequelize } = await import('./src/db.js');
    await sequelize.close();
  },
  schemaPath: 'schema.json',
  generator: {
    language: 'typescript',
    importExtension: '.js',
    sequelize: 'src/db.ts#sequelize',
    baseResource: 'src/resources/application-resource.ts#ApplicationResource',
    resources: 'src/resources',
    models: 'src/models',
    controllers: 'src/controllers',
    tests: 'test/resources',
    routes: 'src/routes.ts',
  },
});
`,
  );
  await queryWorks(t, dir);
  const guards = await muralIn(dir, 'guards');
  t.is(guards.code, 0, guards.err);
  t.regex(guards.out, /ProductResource\s+attribute\s+cost\s+readable\s+isAdmin/);
  const exported = await muralIn(dir, 'schema', 'export');
  t.is(exported.out, `Wrote 2 resources to ${join(dir, 'schema.json')}\n`, exported.err);
  const checked = await muralIn(dir, 'schema', 'check');
  t.is(checked.code, 0, checked.err);
  t.is(checked.out, 'No breaking changes.\n');
  await generatedResourceWorks(t, dir, 'test/resources/widget-resource.test.ts');
  t.regex(read(dir, 'src/resources/widget-resource.ts'), /^import \{ ApplicationResource \} from '\.\/application-resource\.js';\nimport \{ Widget \} from '\.\.\/models\/widget\.js';\n\nexport class WidgetResource extends ApplicationResource \{/);
  t.regex(read(dir, 'src/models/widget.ts'), /import \{ sequelize \} from '\.\.\/db\.js';\n\nexport class Widget extends Model \{\n {2}declare id: number;/);
  t.false(existsSync(join(dir, 'src/models/db.ts')), 'no second connection');
  t.regex(read(dir, 'src/routes.ts'), /import \{ widgetController \} from '\.\/controllers\/widget-controller\.js';/);
  // the config and the generated code type-check, strict, `mural` typed by the repository's sources
  writeFileSync(join(dir, 'tsconfig.check.json'), JSON.stringify({ extends: '../../tsconfig.json', include: ['**/*.ts'], exclude: ['node_modules'] }));
  await t.notThrowsAsync(run(join(process.cwd(), 'node_modules/.bin/tsc'), ['--noEmit', '-p', join(dir, 'tsconfig.check.json')]));
});

test('JavaScript ES modules: a default-exported instance, Resources in src/api; generated code is JavaScript', async (t) => {
  const dir = await shop(t, 'esm', esmShop);
  const result = await runMural(['init'], dir);
  t.is(result.code, 0, result.err);
  t.regex(result.out, /^create mural\.config\.js\n/);
  const config = read(dir, 'mural.config.js');
  t.regex(config, /^import \{ defineConfig, importResources \} from 'mural-cli';\n/);
  t.regex(config, /\nexport default defineConfig\(\{\n {2}resources: \(\) => importResources\(import\.meta\.url, 'src\/api'\),\n {2}async close\(\) \{\n {4}const \{ default: sequelize \} = await import\('\.\/src\/db\.js'\);\n {4}await sequelize\.close\(\);\n {2}\},/);
  t.regex(config, /generator: \{\n {4}language: 'javascript',\n {4}sequelize: 'src\/db\.js#default',\n {4}resources: 'src\/api',\n {4}models: 'src\/models',/);
  t.notRegex(config, /importExtension|baseResource|app\.js/, 'src/app.js starts a server: it is never imported');
  await queryWorks(t, dir);
  await generatedResourceWorks(t, dir, 'test/resources/widget-resource.test.js');
  const resource = read(dir, 'src/api/widget-resource.js');
  t.regex(resource, /^import \{ Resource \} from 'mural';\nimport \{ SequelizeAdapter \} from 'mural\/sequelize';\nimport \{ Widget \} from '\.\.\/models\/widget\.js';\n\nexport class WidgetResource extends Resource \{/);
  t.regex(read(dir, 'src/models/widget.js'), /^import \{ DataTypes, Model \} from 'sequelize';\nimport sequelize from '\.\.\/db\.js';\n\nexport class Widget extends Model \{\}\n/);
});

test('JavaScript CommonJS: a config with require, Resources declared beside the app, generated code with require and module.exports', async (t) => {
  const dir = await shop(t, 'commonjs', commonjsShop);
  const result = await runMural(['init'], dir);
  t.is(result.code, 0, result.err);
  t.is(
    read(dir, 'mural.config.js'),
    `const { defineConfig, importResources } = require('mural-cli');

/**
 * Written by \`mural init\`. Commands import the Resources on demand from these
 * files and directories (Resources added to a directory are picked up), and
 * close the connection when done; nothing here creates, syncs or seeds tables.
 */
module.exports = defineConfig({
  resources: () => importResources(__filename, 'lib/app.js', 'lib/resources'),
  async close() {
    const { sequelize } = require('./lib/database.js');
    await sequelize.close();
  },
  schemaPath: 'schema.json',
  generator: {
    language: 'javascript',
    sequelize: 'lib/database.js#sequelize',
    resources: 'lib/resources',
    models: 'lib/models',
    controllers: 'lib/controllers',
    tests: 'test/resources',
    routes: 'lib/routes.js',
  },
});
`,
  );
  t.regex(result.out, /npx mural query products --per 5/);
  await queryWorks(t, dir);
  await generatedResourceWorks(t, dir, 'test/resources/widget-resource.test.js');
  t.regex(read(dir, 'lib/resources/widget-resource.js'), /^const \{ Resource \} = require\('mural'\);\n[^]*\nclass WidgetResource extends Resource \{[^]*\n\nmodule\.exports = \{ WidgetResource \};\n$/);
  t.regex(read(dir, 'lib/models/widget.js'), /const \{ sequelize \} = require\('\.\.\/database\.js'\);/);
  t.regex(read(dir, 'lib/routes.js'), /^const \{ Router \} = require\('express'\);\n\/\/ mural:imports\nconst \{ widgetController \} = require\('\.\/controllers\/widget-controller\.js'\);\n/);
});

test('.mjs sources in a CommonJS package: mural.config.mjs, and generated files are .mjs ES modules', async (t) => {
  const mjs = Object.fromEntries(
    Object.entries(esmShop).map(([path, content]) => [path.replace(/\.js$/, '.mjs'), content.replace(/(from '\.{1,2}\/[^']+)\.js'/g, "$1.mjs'")]),
  );
  const dir = await shop(t, 'mjs', { ...mjs, 'package.json': JSON.stringify({ name: 'shop', private: true }) });
  const result = await runMural(['init'], dir);
  t.is(result.code, 0, result.err);
  t.regex(result.out, /^create mural\.config\.mjs\n/);
  const config = read(dir, 'mural.config.mjs');
  t.regex(config, /^import \{ defineConfig, importResources \} from 'mural-cli';[^]*importResources\(import\.meta\.url, 'src\/api'\)[^]*await import\('\.\/src\/db\.mjs'\)/);
  t.regex(config, /language: 'javascript',\n {4}moduleFormat: 'esm',\n {4}sequelize: 'src\/db\.mjs#default',/);
  await queryWorks(t, dir);
  t.is((await runMural(['generate', 'resource', 'Widget', 'label:string'], dir)).code, 0);
  t.regex(read(dir, 'src/api/widget-resource.mjs'), /^import \{ Resource \} from 'mural';\n[^]*import \{ Widget \} from '\.\.\/models\/widget\.mjs';\n\nexport class WidgetResource/);
  t.regex(read(dir, 'src/routes.mjs'), /import \{ widgetController \} from '\.\/controllers\/widget-controller\.mjs';/);
  const exported = await muralIn(dir, 'schema', 'export');
  t.is(exported.out, `Wrote 3 resources to ${join(dir, 'schema.json')}\n`, exported.err);
});

/** A shop without a database file: `init` reads sources only, never the application's modules. */
function sources(t: ExecutionContext, name: string, files: Record<string, string>): string {
  const dir = createApp(`init-${name}`, files);
  t.teardown(() => removeApp(dir));
  return dir;
}

test('never replaces a config without --force; with it, replaces it and removes one of another language', async (t) => {
  const dir = sources(t, 'force', typescriptShop);
  writeFileSync(join(dir, 'mural.config.js'), 'export default { resources: [] };\n');
  const refused = await runMural(['init'], dir);
  t.is(refused.code, 1);
  t.is(refused.err, 'mural.config.js already exists; use --force to replace it\n');
  t.is(read(dir, 'mural.config.js'), 'export default { resources: [] };\n');
  t.false(existsSync(join(dir, 'mural.config.ts')));
  const forced = await runMural(['init', '--force'], dir);
  t.is(forced.code, 0, forced.err);
  t.regex(forced.out, /^remove mural\.config\.js\ncreate mural\.config\.ts\n/);
  t.false(existsSync(join(dir, 'mural.config.js')), 'mural.config.ts would win anyway: a stale .js beside it only misleads');
  const again = await runMural(['init', '--force'], dir);
  t.regex(again.out, /^replace mural\.config\.ts\n/);
});

test('several Sequelize instances without --sequelize: exit 2 naming the flag, nothing written; the flag chooses', async (t) => {
  const dir = sources(t, 'ambiguous', {
    ...typescriptShop,
    'src/replica.ts': "import { Sequelize } from 'sequelize';\n\nexport const replica = new Sequelize('sqlite::memory:');\n",
  });
  const ambiguous = await runMural(['init'], dir);
  t.is(ambiguous.code, 2);
  t.is(ambiguous.err, 'Found 2 Sequelize instances (src/db.ts#sequelize, src/replica.ts#replica); choose one with --sequelize PATH#EXPORT\n');
  t.false(existsSync(join(dir, 'mural.config.ts')));
  const chosen = await runMural(['init', '--sequelize', 'src/replica.ts'], dir);
  t.is(chosen.code, 0, chosen.err);
  t.regex(read(dir, 'mural.config.ts'), /const \{ replica \} = await import\('\.\/src\/replica\.js'\);\n {4}await replica\.close\(\);/);
  t.regex(read(dir, 'mural.config.ts'), /sequelize: 'src\/replica\.ts#replica',/);
});

test('flags name the Resources and where generate writes; a generate directory outside them is loaded too', async (t) => {
  const dir = sources(t, 'flags', typescriptShop);
  const result = await runMural(
    ['init', '--sequelize', 'src/db.ts#sequelize', '--resources', 'src/resources/product-resource.ts', '--resources', './src/resources/category-resource.ts',
      '--resources-dir', 'src/generated', '--models-dir', 'src/db/models', '--controllers-dir', 'src/http', '--tests-dir', 'spec', '--routes', 'src/http/mural.ts'],
    dir,
  );
  t.is(result.code, 0, result.err);
  const config = read(dir, 'mural.config.ts');
  t.regex(config, /resources: \(\) => importResources\(import\.meta\.url, 'src\/resources\/product-resource\.ts', 'src\/resources\/category-resource\.ts', 'src\/generated'\),/);
  t.regex(config, /resources: 'src\/generated',\n {4}models: 'src\/db\/models',\n {4}controllers: 'src\/http',\n {4}tests: 'spec',\n {4}routes: 'src\/http\/mural\.ts',/);
});

test('--javascript in a TypeScript project, and the project\'s own .ts imports, are followed', async (t) => {
  const tsImports = Object.fromEntries(Object.entries(typescriptShop).map(([path, content]) => [path, content.replace(/from '(\.[^']+)\.js'/g, "from '$1.ts'")]));
  const dir = sources(t, 'extensions', tsImports);
  t.is((await runMural(['init'], dir)).code, 0);
  t.regex(read(dir, 'mural.config.ts'), /importExtension: '\.ts',/);
  t.regex(read(dir, 'mural.config.ts'), /await import\('\.\/src\/db\.ts'\)/);
  const js = await runMural(['init', '--javascript', '--force'], dir);
  t.is(js.code, 0, js.err);
  t.regex(read(dir, 'mural.config.js'), /language: 'javascript',/);
  t.is((await runMural(['init', '--javascript', '--typescript', '--force'], dir)).err, 'Pass --typescript or --javascript, not both\n');
});

test('an application without Resources yet: the config loads those generate will write; meanwhile commands say where they looked', async (t) => {
  const { 'src/db.ts': db, 'src/models/product.ts': product, 'package.json': pkg, 'tsconfig.json': tsconfig } = typescriptShop;
  const dir = sources(t, 'no-resources', { 'src/db.ts': db!, 'src/models/product.ts': product!, 'package.json': pkg!, 'tsconfig.json': tsconfig! });
  const result = await runMural(['init'], dir);
  t.is(result.code, 0, result.err);
  t.regex(result.out, /npx mural query RESOURCE --per 5/);
  t.regex(result.out, /\nNo Resources found yet: those `generate resource` writes to src\/resources are loaded from there; until then, commands that load the Resources say where they looked\.\n/);
  t.regex(read(dir, 'mural.config.ts'), /resources: \(\) => importResources\(import\.meta\.url, 'src\/resources'\),/);
  t.notRegex(read(dir, 'mural.config.ts'), /baseResource/);
  const guards = await runMural(['guards'], dir);
  t.is(guards.code, 2);
  t.is(guards.err, `Could not load the Resources: importResources found no Resource: ${join(dir, 'src/resources')} does not exist\n`);
});

test('Resources a function builds: init says the config must call it, instead of "No Resources found"', async (t) => {
  const { 'src/db.ts': db, 'src/models/product.ts': product, 'package.json': pkg, 'tsconfig.json': tsconfig, 'src/resources/application-resource.ts': base } = typescriptShop;
  const factory = `import { Product } from '../models/product.js';
import { ApplicationResource } from './application-resource.js';

export function defineResources() {
  class ProductResource extends ApplicationResource {
    static {
      this.model = Product;
      this.attribute('name', 'string');
    }
  }
  return { ProductResource };
}
`;
  const dir = sources(t, 'factory', { 'src/db.ts': db!, 'src/models/product.ts': product!, 'package.json': pkg!, 'tsconfig.json': tsconfig!, 'src/resources/application-resource.ts': base!, 'src/resources/index.ts': factory });
  const result = await runMural(['init'], dir);
  t.is(result.code, 0, result.err);
  t.regex(result.out, /\n1 Resource is built inside functions \(ProductResource in src\/resources\/index\.ts\)\. Importing a module cannot call them,\nso mural\.config\.ts does not load them: make its `resources` call the function and return the classes\.\n/);
  t.notRegex(result.out, /No Resources found yet/);
  t.regex(read(dir, 'mural.config.ts'), /baseResource: 'src\/resources\/application-resource\.ts#ApplicationResource'/);
});

test('what init cannot find or use is one line naming the fix, exit 2', async (t) => {
  const { 'src/db.ts': _db, ...withoutDatabase } = typescriptShop;
  const noDatabase = sources(t, 'no-database', withoutDatabase);
  const none = await runMural(['init'], noDatabase);
  t.is(none.code, 2);
  t.regex(none.err, /^No module exporting a Sequelize instance found \(looked for an exported new Sequelize\(…\) in \d+ files\); pass --sequelize PATH#EXPORT\n$/);
  const dir = sources(t, 'bad-flags', typescriptShop);
  t.is((await runMural(['init', '--resources', 'src/nowhere'], dir)).err, '--resources src/nowhere: no such file or directory\n');
  t.is((await runMural(['init', '--resources', './'], dir)).err, '--resources .: not the whole project; name the Resource modules or their directory\n');
  t.is((await runMural(['init', '--sequelize', 'src/app.ts'], dir)).err, '--sequelize src/app.ts: found no export to use; name it: --sequelize src/app.ts#EXPORT\n');
  t.is((await runMural(['init', '--sequelize', 'src/db.ts#not-a-name'], dir)).err, '--sequelize "src/db.ts#not-a-name": "not-a-name" is not an export name; write path#export\n');
  const { 'package.json': _pkg, ...withoutPackage } = typescriptShop;
  const bare = sources(t, 'no-package', withoutPackage);
  const noPackage = await runMural(['init'], bare);
  t.is(noPackage.code, 2);
  t.is(noPackage.err, `No package.json in ${bare}; run mural init in your application's root directory\n`);
});

test('init and its --help need no config; mural --help lists it', async (t) => {
  const dir = sources(t, 'help', { 'package.json': '{}' });
  const help = await runMural(['init', '--help'], dir);
  t.is(help.code, 0);
  t.regex(help.out, /--sequelize <path#export>/);
  t.regex(help.out, /Examples:\n {2}\$ mural init\n/);
  t.regex((await runMural(['--help'], dir)).out, /\n {2}init \[options\] +Write mural\.config/);
});
