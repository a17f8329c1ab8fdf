import test from 'ava';
import { Chalk } from 'chalk';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { CommandContext } from '../../commands/host/command.ts';
import type { GeneratorSettings } from '../../commands/host/project-config.ts';
import { templateContext } from '../../commands/template-context.ts';
import { controllerTemplate, routeLines, routesTemplate } from '../../templates/controller.ts';
import { databaseTemplate, modelTemplate } from '../../templates/model.ts';
import { resourceTemplate } from '../../templates/resource.ts';
import { resourceTestTemplate } from '../../templates/resource-test.ts';

const run = promisify(execFile);

/** A project root with a package.json of the given type, and the generator settings of its config. */
function project(type: 'module' | 'commonjs', generator: Partial<GeneratorSettings>) {
  const root = mkdtempSync(join(tmpdir(), 'mural-templates-'));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ type }));
  const context: CommandContext = {
    config: { resources: [], generator },
    root,
    resources: async () => [],
    templates: new Map(),
    io: { out: () => undefined, err: () => undefined, interactive: false },
    color: new Chalk({ level: 0 }),
  };
  const c = templateContext(context, { name: 'Widget', attributes: [{ name: 'label', type: 'string' }, { name: 'weight', type: 'integer' }], actions: ['index', 'show'] });
  const files = {
    resource: resourceTemplate(c),
    model: modelTemplate(c),
    database: databaseTemplate(c),
    controller: controllerTemplate(c),
    routes: routesTemplate(c),
    test: resourceTestTemplate(c),
  };
  return { root, c, files };
}

/** `node --check`: the file parses as the module format its extension gives it. */
async function parses(root: string, name: string, source: string): Promise<void> {
  const path = join(root, name);
  writeFileSync(path, source);
  await run(process.execPath, ['--check', path]);
}

test('TypeScript (the default) declares the model columns and imports with .ts', (t) => {
  const { root, c, files } = project('module', {});
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  t.is(c.paths.resource, join(root, 'app/resources/widget-resource.ts'));
  t.is(c.paths.routes, join(root, 'app/routes.ts'));
  t.regex(files.resource, /^import \{ Resource \} from 'mural';\nimport \{ SequelizeAdapter \} from 'mural\/sequelize';\nimport \{ Widget \} from '\.\.\/models\/widget\.ts';\n\nexport class WidgetResource extends Resource \{\n {2}static \{\n {4}this\.adapter = SequelizeAdapter;/);
  t.regex(files.model, /export class Widget extends Model \{\n {2}declare id: number;\n {2}declare label: string \| null;\n {2}declare weight: number \| null;\n\}/);
  t.regex(files.model, /import \{ sequelize \} from '\.\/db\.ts';/);
  t.regex(files.test, /let server: Server;/);
  t.regex(files.test, /await Widget\.sync\(\{ force: true \}\);/, 'only the generated table is recreated');
  t.notRegex(files.test, /sequelize\.sync/);
  t.regex(files.test, /\nWidget\.init\(Widget\.getAttributes\(\), \{ \.\.\.Widget\.options, sequelize: database \}\);\n/, 'on the test database, bound before any query');
  t.regex(files.test, /const database = process\.env\.MURAL_TEST_DATABASE_URL\n {2}\? new Sequelize\(process\.env\.MURAL_TEST_DATABASE_URL, \{ logging: false \}\)\n {2}: new Sequelize\(\{ dialect: 'sqlite', storage: ':memory:', logging: false \}\);/);
});

test('TypeScript compiled by tsc imports with .js and uses the application\'s Sequelize instance and base Resource', (t) => {
  const { root, c, files } = project('commonjs', {
    importExtension: '.js',
    resources: 'src/resources',
    models: 'src/models',
    sequelize: 'src/db.ts#db',
    baseResource: 'src/resources/application-resource.ts#ApplicationResource',
  });
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  t.is(c.code.moduleFormat, 'esm', 'TypeScript is written with import/export whatever it compiles to');
  t.regex(files.model, /import \{ db as sequelize \} from '\.\.\/db\.js';/);
  t.regex(files.resource, /^import \{ ApplicationResource \} from '\.\/application-resource\.js';\nimport \{ Widget \} from '\.\.\/models\/widget\.js';\n\nexport class WidgetResource extends ApplicationResource \{\n {2}static \{\n {4}this\.model = Widget;/);
  t.notRegex(files.resource, /adapter|endpointNamespace/, 'the base Resource holds the adapter and namespace');
  t.regex(files.controller, /import \{ WidgetResource \} from '\.\.\/\.\.\/src\/resources\/widget-resource\.js';/);
});

test('JavaScript ES modules: no types, .js files and imports, and every file parses', async (t) => {
  const { root, c, files } = project('module', { language: 'javascript', sequelize: 'src/db.js#default', testRunner: 'ava' });
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  t.is(c.paths.model, join(root, 'app/models/widget.js'));
  t.is(c.paths.test, join(root, 'test/resources/widget-resource.test.js'));
  t.is(c.paths.routes, join(root, 'app/routes.js'));
  t.regex(files.model, /^import \{ DataTypes, Model \} from 'sequelize';\nimport sequelize from '\.\.\/\.\.\/src\/db\.js';\n\nexport class Widget extends Model \{\}\n/);
  t.regex(files.test, /^import test from 'ava';\nimport express from 'express';\nimport \{ Sequelize \} from 'sequelize';\nimport \{ Widget \} from '\.\.\/\.\.\/app\/models\/widget\.js';/);
  t.regex(files.test, /let server;\n/);
  t.regex(files.test, /base = `http:\/\/127\.0\.0\.1:\$\{server\.address\(\)\.port\}`;/);
  for (const [name, source] of Object.entries(files)) {
    t.notRegex(source, /: (string|number|Server|unknown)\b|\bas \{|declare |import type/, name);
    await t.notThrowsAsync(parses(root, `${name}.js`, source), name);
  }
});

test('JavaScript CommonJS: require and module.exports, and every file parses', async (t) => {
  const { root, c, files } = project('commonjs', { language: 'javascript', sequelize: 'lib/db.js#sequelize' });
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  t.is(c.code.moduleFormat, 'commonjs', 'the format follows package.json');
  t.regex(files.resource, /^const \{ Resource \} = require\('mural'\);\nconst \{ SequelizeAdapter \} = require\('mural\/sequelize'\);\nconst \{ Widget \} = require\('\.\.\/models\/widget\.js'\);\n\nclass WidgetResource extends Resource \{/);
  t.regex(files.resource, /\}\n\nmodule\.exports = \{ WidgetResource \};\n$/);
  t.regex(files.model, /const \{ sequelize \} = require\('\.\.\/\.\.\/lib\/db\.js'\);/);
  t.regex(files.routes, /^const \{ Router \} = require\('express'\);\n\/\/ mural:imports\n\nconst routes = Router\(\);\nmodule\.exports = \{ routes \};\n\/\/ mural:routes\n$/);
  t.deepEqual(routeLines(c), { importLine: "const { widgetController } = require('./controllers/widget-controller.js');", useLine: 'routes.use(widgetController);' });
  // a package.json naming no test runner: Node's own
  t.regex(files.test, /^const \{ test, before, after \} = require\('node:test'\);\nconst assert = require\('node:assert\/strict'\);\nconst express = require\('express'\);/);
  t.regex(files.test, /^ {2}assert\.equal\(response\.status, 200\);$/m);
  for (const [name, source] of Object.entries(files)) {
    t.notRegex(source, /^(import|export) /m, name);
    await t.notThrowsAsync(parses(root, `${name}.js`, source), name);
  }
});

test('an ES module generator setting in a CommonJS package writes .mjs files, and the reverse .cjs', (t) => {
  const esm = project('commonjs', { language: 'javascript', moduleFormat: 'esm' });
  const cjs = project('module', { language: 'javascript', moduleFormat: 'commonjs' });
  t.teardown(() => [esm.root, cjs.root].forEach((root) => rmSync(root, { recursive: true, force: true })));
  t.is(esm.c.paths.resource, join(esm.root, 'app/resources/widget-resource.mjs'));
  t.regex(esm.files.resource, /from '\.\.\/models\/widget\.mjs';/);
  t.is(cjs.c.paths.resource, join(cjs.root, 'app/resources/widget-resource.cjs'));
  t.regex(cjs.files.resource, /require\('\.\.\/models\/widget\.cjs'\)/);
});

test('without a base Resource, the namespace the application\'s Resources use is set on the generated one', (t) => {
  const { root, files } = project('module', { endpointNamespace: '/api/v1' });
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  t.regex(files.resource, /\n {4}this\.adapter = SequelizeAdapter;\n {4}this\.endpointNamespace = '\/api\/v1';\n {4}this\.model = Widget;\n/);
});

test('Vitest in a CommonJS package: the test is an ES module requiring the application\'s modules as the application does', (t) => {
  const { root, c, files } = project('commonjs', { language: 'javascript', testRunner: 'vitest' });
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  t.is(c.paths.test, join(root, 'test/resources/widget-resource.test.mjs'));
  t.regex(files.test, /^import \{ test, beforeAll, afterAll, expect \} from 'vitest';\nimport express from 'express';\nimport \{ Sequelize \} from 'sequelize';\nimport \{ createRequire \} from 'node:module';\nconst require = createRequire\(import\.meta\.url\);\nconst \{ Widget \} = require\('\.\.\/\.\.\/app\/models\/widget\.js'\);\n/);
  t.regex(files.resource, /^const \{ Resource \} = require\('mural'\);/, 'the application\'s own files stay CommonJS');
});
