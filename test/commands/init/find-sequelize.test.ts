import test from 'ava';
import { sequelizeExports } from '../../../commands/init/find-sequelize.ts';
import { stripComments } from '../../../commands/init/strip-comments.ts';

const exportsOf = (source: string) => sequelizeExports(stripComments(source));
const esm = "import { Sequelize } from 'sequelize';\n";
const cjs = "const { Sequelize } = require('sequelize');\n";

test('ES module exports: declared, listed, renamed, default', (t) => {
  t.deepEqual(exportsOf(`${esm}export const sequelize = new Sequelize('sqlite::memory:');\n`), ['sequelize']);
  t.deepEqual(exportsOf(`${esm}const db = new Sequelize(process.env.DATABASE_URL!, {\n  logging: false,\n});\nexport { db as sequelize, other };\n`), ['sequelize']);
  t.deepEqual(exportsOf(`${esm}const db = new Sequelize('sqlite::memory:');\nexport default db;\n`), ['default']);
  t.deepEqual(exportsOf(`${esm}export default new Sequelize('sqlite::memory:');\n`), ['default']);
  t.deepEqual(exportsOf(`import { Sequelize } from 'sequelize-typescript';\nexport const sequelize: Sequelize = new Sequelize({ dialect: 'sqlite' });\n`), ['sequelize']);
});

test('an initializer spanning lines, choosing between instances, is one instance', (t) => {
  const source = `${esm}export const sequelize = process.env.DATABASE_URL
  ? new Sequelize(process.env.DATABASE_URL, { logging: false })
  : new Sequelize({ dialect: 'sqlite', storage: ':memory:' });
export const ready = sequelize.authenticate();
`;
  t.deepEqual(exportsOf(source), ['sequelize']);
});

test('CommonJS exports: module.exports, its object, exports.name', (t) => {
  t.deepEqual(exportsOf(`${cjs}const sequelize = new Sequelize('sqlite::memory:');\nmodule.exports = sequelize;\n`), ['default']);
  t.deepEqual(exportsOf(`${cjs}const sequelize = new Sequelize('sqlite::memory:');\nmodule.exports = { sequelize, Model: 1 };\n`), ['sequelize']);
  t.deepEqual(exportsOf(`${cjs}const instance = new Sequelize('sqlite::memory:');\nmodule.exports = { db: instance };\n`), ['db']);
  t.deepEqual(exportsOf(`${cjs}exports.sequelize = new Sequelize('sqlite::memory:');\n`), ['sequelize']);
  t.deepEqual(exportsOf(`${cjs}module.exports = new Sequelize('sqlite::memory:');\n`), ['default']);
});

test('no exported instance: kept private, commented out, built by a factory, or not Sequelize\'s', (t) => {
  t.deepEqual(exportsOf(`${esm}const sequelize = new Sequelize('sqlite::memory:');\nexport const ready = true;\n`), []);
  t.deepEqual(exportsOf(`${esm}// export const sequelize = new Sequelize('sqlite::memory:');\n/* export default new Sequelize() */\n`), []);
  t.deepEqual(exportsOf(`${esm}export function connect(url: string) {\n  return new Sequelize(url);\n}\n`), []);
  t.deepEqual(exportsOf(`import { Sequelize } from './my-orm.js';\nexport const sequelize = new Sequelize();\n`), []);
  t.deepEqual(exportsOf(`${esm}export const url = 'postgres://host/db'; // new Sequelize(url)\n`), [], 'a URL in a string is no comment');
});
