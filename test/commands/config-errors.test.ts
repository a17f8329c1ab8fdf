import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runMural } from '../support/cli.ts';

/** What `mural` says, in one line and exit 2, when the project's config or Resources cannot be used as written. */

const repo = process.cwd();
const core = resolve(repo, 'core/index.ts');
const cli = resolve(repo, 'commands/index.ts');
const sequelizePlugin = resolve(repo, 'plugins/sequelize/index.ts');
// the project sits outside the repository: it reaches its packages by path
const sequelize = resolve(repo, 'node_modules/sequelize/lib/index.mjs');

function project(files: Record<string, string>, type = 'module'): string {
  const dir = mkdtempSync(join(tmpdir(), 'mural-config-errors-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type }));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

const unclosed = 'export default {\n  resources: [],\n  }\n}\n';

test('a syntax error in mural.config.mjs is reported at its file, line and column', async (t) => {
  const result = await runMural(['guards'], project({ 'mural.config.mjs': unclosed }));
  t.is(result.code, 2);
  t.is(result.err, "Syntax error at mural.config.mjs:4:1: Unexpected token '}'\n");
});

test('a syntax error in mural.config.js, ES module or CommonJS', async (t) => {
  const esm = await runMural(['guards'], project({ 'mural.config.js': unclosed }));
  t.is(esm.err, "Syntax error at mural.config.js:4:1: Unexpected token '}'\n");
  const commonjs = await runMural(['guards'], project({ 'mural.config.js': 'module.exports = {\n  resources: [,\n};\n' }, 'commonjs'));
  t.is(commonjs.code, 2);
  t.is(commonjs.err, "Syntax error at mural.config.js:3:1: Unexpected token '}'\n");
});

test('a syntax error in mural.config.ts, or in a module it imports, which is named with its importer', async (t) => {
  const own = await runMural(['guards'], project({ 'mural.config.ts': unclosed }));
  t.is(own.code, 2);
  t.is(own.err, 'Syntax error at mural.config.ts:4:1: Unexpected "}"\n');
  const imported = await runMural(['guards'], project({ 'mural.config.ts': "import './resources.ts';\nexport default { resources: [] };\n", 'resources.ts': 'export const list = [1, 2;\n' }));
  t.is(imported.err, 'Syntax error at resources.ts:1:26: Expected "]" but found ";" (imported by mural.config.ts)\n');
});

test('a config importing Resources from a folder that does not exist names the folder it looked in', async (t) => {
  const dir = project({ 'mural.config.ts': `import { defineConfig, importResources } from '${cli}';\nexport default defineConfig({ resources: () => importResources(import.meta.url, './missing') });\n` });
  const result = await runMural(['query', 'books'], dir);
  t.is(result.code, 2);
  t.is(result.err, `Could not load the Resources: importResources found no Resource: ${join(dir, 'missing')} does not exist\n`);
});

test('an unknown Resource is told from the known ones, or from none at all', async (t) => {
  const empty = await runMural(['query', 'books'], project({ 'mural.config.ts': `export default { resources: [] };\n` }));
  t.is(empty.code, 1);
  t.is(empty.err, 'Unknown resource "books": the config loaded no Resources\n');
  const declared = `import { Resource } from '${core}';\nclass AuthorResource extends Resource {}\nclass BookResource extends Resource {}\n`;
  const config = `${declared}// no models: the query is refused before it would need them\nexport default { resources: [AuthorResource, BookResource], checkResources: false };\n`;
  const typo = await runMural(['query', 'autors'], project({ 'mural.config.ts': config }));
  t.is(typo.code, 1);
  t.is(typo.err, 'Unknown resource "autors"; did you mean "authors"? known: authors, books\n');
});

const brokenResources = (check: string) => `import { DataTypes, Model, Sequelize } from '${sequelize}';
import { Resource } from '${core}';
import { SequelizeAdapter } from '${sequelizePlugin}';
const sequelize = new Sequelize({ dialect: 'sqlite', storage: ':memory:', logging: false });
class Book extends Model {}
Book.init({ title: DataTypes.STRING }, { sequelize, tableName: 'books', timestamps: false });
class BookResource extends Resource {
  static {
    this.adapter = SequelizeAdapter;
    this.model = Book;
    this.attribute('titel', 'string');
  }
}
export default { resources: [BookResource]${check} };
`;

test('Resources that fail checkResources stop every command that loads them, as they would stop the server', async (t) => {
  const result = await runMural(['schema', 'export'], project({ 'mural.config.ts': brokenResources('') }));
  t.is(result.code, 2);
  t.is(result.err, 'The Resources have 1 problem:\n  BookResource.titel: not a column of model Book; did you mean "title"? (at mural.config.ts:11:10)\n');
});

test('checkResources: false in the config lets commands describe them anyway', async (t) => {
  const result = await runMural(['guards'], project({ 'mural.config.ts': brokenResources(', checkResources: false') }));
  t.is(result.code, 0, result.err);
});
