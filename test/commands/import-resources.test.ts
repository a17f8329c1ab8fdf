import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { importResources, resourcesFrom } from '../../commands/index.ts';
import { Resource } from '../../core/index.ts';

const core = resolve(process.cwd(), 'core/index.ts');

class ApplicationResource extends Resource {
  static {
    this.abstractClass = true;
  }
}
class BookResource extends ApplicationResource {}
class AuthorResource extends Resource {}

test('resourcesFrom picks the concrete Resources out of module namespaces, module.exports objects, arrays and classes', (t) => {
  const namespace = { ApplicationResource, BookResource, helper: () => 1, TITLE: 'x' };
  const commonjs = { default: { AuthorResource, BookResource } };
  t.deepEqual(resourcesFrom(namespace, commonjs, [AuthorResource], AuthorResource, null, undefined, 'text'), [BookResource, AuthorResource]);
  t.deepEqual(resourcesFrom(ApplicationResource), [], 'an abstract Resource is not served');
  t.deepEqual(resourcesFrom(class NotAResource {}, Resource), [], 'neither other classes nor Resource itself');
});

function app(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mural-import-resources-'));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

const resourceModule = (name: string, base = 'Resource') =>
  `import { Resource } from '${core}';\nexport class ${name} extends ${base} { static { this.type = '${name.toLowerCase()}'; } }\n`;

test('importResources loads every module of a directory, nested ones too, and named files, relative to the config', async (t) => {
  const dir = app({
    'src/resources/application-resource.ts': `import { Resource } from '${core}';\nexport class ApplicationResource extends Resource { static { this.abstractClass = true; } }\n`,
    'src/resources/book-resource.ts': `import { ApplicationResource } from './application-resource.ts';\nexport class BookResource extends ApplicationResource {}\n`,
    'src/resources/admin/audit-resource.mjs': resourceModule('AuditResource'),
    'src/resources/book-resource.test.ts': 'throw new Error("tests are not Resources");\n',
    'src/resources/types.d.ts': 'export type X = 1;\n',
    'src/legacy/author.ts': resourceModule('AuthorResource'),
  });
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const config = pathToFileURL(join(dir, 'mural.config.ts')).href;
  const resources = await importResources(config, 'src/resources', 'src/legacy/author.ts');
  t.deepEqual(resources.map((r) => r.name), ['AuditResource', 'BookResource', 'AuthorResource']);
  t.deepEqual((await importResources(join(dir, 'mural.config.js'), 'src/legacy/author.ts')).map((r) => r.name), ['AuthorResource'], 'a path (__filename) works as well as a URL');
  t.deepEqual((await importResources(dir, 'src/legacy')).map((r) => r.name), ['AuthorResource'], 'and a directory');
});

test('finding no Resource is an error naming each folder it looked in, resolved, and why it found none', async (t) => {
  const dir = app({ 'src/empty/.gitkeep': '', 'src/helpers/format.ts': 'export const format = (s: string) => s.trim();\n' });
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  await t.throwsAsync(importResources(dir, './missing'), { message: `importResources found no Resource: ${join(dir, 'missing')} does not exist` });
  await t.throwsAsync(importResources(join(dir, 'mural.config.js'), 'src/empty', 'src/helpers'), {
    message: `importResources found no Resource: ${join(dir, 'src/empty')} holds no module; ${join(dir, 'src/helpers')} holds 1 module, none exporting a concrete Resource class`,
  });
});

test('a folder not created yet beside one holding Resources adds none: mural init names the one generate will write to', async (t) => {
  const dir = app({ 'src/resources/author.ts': resourceModule('AuthorResource') });
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  t.deepEqual((await importResources(dir, 'src/resources', 'src/generated')).map((r) => r.name), ['AuthorResource']);
});

test('a missing file, a module that fails and a syntax error are each named', async (t) => {
  const dir = app({
    'src/broken.ts': 'import { nothing } from "./missing.ts";\nexport default nothing;\n',
    'src/typo.mjs': 'export const list = [1, 2;\n',
    'src/typo.ts': 'export const list: number[] = [1, 2;\n',
  });
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  await t.throwsAsync(importResources(dir, 'src/resources/gone.ts'), { message: /src\/resources\/gone\.ts does not exist/ });
  await t.throwsAsync(importResources(dir, 'src/broken.ts'), { message: /^src\/broken\.ts: Cannot find module/ });
  await t.throwsAsync(importResources(dir, 'src/typo.mjs'), { message: "Syntax error at src/typo.mjs:1:26: Unexpected token ';'" });
  await t.throwsAsync(importResources(dir, 'src/typo.ts'), { message: 'Syntax error at src/typo.ts:1:36: Expected "]" but found ";"' });
});
