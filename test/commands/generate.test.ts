import test from 'ava';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { runMural } from '../support/cli.ts';

const run = promisify(execFile);
const repo = process.cwd();
// inside the repository, so generated code imports `mural` by its package name
const dir = resolve(repo, `test/generated-${process.pid}`);

test.before(() => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'mural.config.ts'), `import { defineConfig } from 'mural-cli';\nexport default defineConfig({ resources: [] });\n`);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: '../../tsconfig.json', compilerOptions: { strict: true }, include: ['**/*.ts'] }));
});
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

const generate = (...args: string[]) => runMural(['generate', 'resource', ...args], dir);

test.serial('writes the Resource, model, controller, test and route registration', async (t) => {
  const result = await generate('Employee', 'first_name:string', 'age:integer', 'salary:big_decimal', 'hired_on:date', 'active:boolean');
  t.is(result.code, 0, result.err);
  t.deepEqual(result.out.trim().split('\n'), [
    'create app/resources/employee-resource.ts',
    'create app/models/employee.ts',
    'create app/controllers/employee-controller.ts',
    'create test/resources/employee-resource.test.ts',
    'create app/models/db.ts',
    'update app/routes.ts',
    '',
    'Run its test (on an in-memory SQLite database, or the one MURAL_TEST_DATABASE_URL names):',
    // the repository's package.json, the nearest, runs ava
    '  npx ava test/resources/employee-resource.test.ts',
  ]);
  const resource = readFileSync(join(dir, 'app/resources/employee-resource.ts'), 'utf8');
  t.regex(resource, /export class EmployeeResource extends Resource/);
  t.regex(resource, /this\.attribute\('salary', 'big_decimal'\);/);
  t.regex(resource, /this\.primaryEndpoint\('\/employees', \['index', 'show', 'create', 'update', 'destroy'\]\);/);
  t.regex(readFileSync(join(dir, 'app/models/employee.ts'), 'utf8'), /tableName: 'employees'/);
});

test.serial('-a limits the actions; the routes file is edited in place, once', async (t) => {
  t.is((await generate('TeamMember', 'name:string', '-a', 'index', 'show')).code, 0);
  const resource = readFileSync(join(dir, 'app/resources/team-member-resource.ts'), 'utf8');
  t.regex(resource, /this\.type = 'team_members';/);
  t.regex(resource, /\['index', 'show'\]/);
  const routes = readFileSync(join(dir, 'app/routes.ts'), 'utf8');
  t.is(routes.match(/routes\.use\(/g)?.length, 2);
  t.is((await generate('TeamMember', 'name:string', '-a', 'index', 'show', '--force')).code, 0);
  t.is(readFileSync(join(dir, 'app/routes.ts'), 'utf8'), routes, 'running again changes nothing');
  const tests = readFileSync(join(dir, 'test/resources/team-member-resource.test.ts'), 'utf8');
  t.notRegex(tests, /POST|PATCH|DELETE/);
});

test.serial('refuses to overwrite without --force', async (t) => {
  const before = readFileSync(join(dir, 'app/resources/employee-resource.ts'), 'utf8');
  const result = await generate('Employee', 'nickname:string');
  t.is(result.code, 1);
  t.regex(result.err, /Not overwriting app\/resources\/employee-resource\.ts, .*; use --force/);
  t.is(readFileSync(join(dir, 'app/resources/employee-resource.ts'), 'utf8'), before);
});

test.serial('an unknown type or bad name is a clear error, with a guess, and writes nothing', async (t) => {
  const said = async (...args: string[]) => {
    const result = await generate(...args);
    t.is(result.code, 2, args.join(' '));
    t.is(result.out, '');
    return result.err.trim();
  };
  t.regex(await said('Widget', 'size:huge'), /^Unknown type "huge" in "size:huge"; types: string, integer, integer_id, uuid, big_decimal, .*, array_of_datetimes$/);
  t.regex(await said('Company', 'name:string', 'founded:year'), /^Unknown type "year" in "founded:year"; did you mean "integer"\? types: string, integer, /);
  t.regex(await said('Company', 'name:strng'), /^Unknown type "strng" in "name:strng"; did you mean "string"\? /);
  t.is(await said('Company', 'kind:string_enum'), 'string_enum in "kind:string_enum" needs an allow list; generate it as string or integer and add allow: by hand');
  t.is(await said('9lives'), '"9lives" is not a valid resource name; use letters and digits, starting with a letter, e.g. Employee');
  t.is(await said('Gadget', 'Size:string'), 'The attribute name in "Size:string" must be snake_case, e.g. first_name');
  t.is(await said('Gadget', 'id:integer'), '"id:integer": every Resource has its own id; leave it out');
  t.is(await said('Gadget', 'size:string', 'size:integer'), '"size" is given twice');
  t.is(await said('Gadget', 'size'), '"size" is not name:type, e.g. first_name:string');
  t.is(await said('Gadget', 'size:string', '-a', 'index', 'explode'), 'Unknown action explode; valid: index, show, create, update, destroy');
  t.is(await said('Gadget', 'size:string', '-a', 'shwo', 'explode'), 'Unknown actions shwo, explode; did you mean "show"? valid: index, show, create, update, destroy');
  t.false(existsSync(join(dir, 'app/resources/widget-resource.ts')));
  t.false(existsSync(join(dir, 'app/resources/gadget-resource.ts')));
});

test.serial('--help lists the attribute types, with those a plugin registers', async (t) => {
  const help = await generate('--help');
  t.is(help.code, 0);
  t.regex(help.out, /\nAttribute types \(name:type\):\n {2}string +A string of text\.\n {2}integer +A whole number/);
  t.regex(help.out, /\n {2}arrays: array, array_of_strings, array_of_integers, /);
  t.notRegex(help.out, /string_enum/, 'enums need an allow list: not generated');
  const app = join(dir, 'plugin-types');
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, 'mural.config.ts'), `import { defineConfig, expressPlugin, sequelizePlugin } from 'mural-cli';
import { Types } from 'mural';

const money = { name: 'money', setup(host: { type(name: string, definition: unknown): void }) { host.type('money', { ...Types.big_decimal, canonical_name: 'money', description: 'An amount of money, in cents.' }); } };
export default defineConfig({ resources: [], plugins: [sequelizePlugin, expressPlugin, money] });
`);
  t.regex((await runMural(['generate', 'resource', '--help'], app)).out, /\n {2}money +An amount of money, in cents\.\n/);
  const generated = await runMural(['generate', 'resource', 'Invoice', 'amount:money'], app);
  t.is(generated.code, 0, generated.err);
  // its TypeScript would need the money type declared (see the README's TypeScript section): not this file's subject
  rmSync(app, { recursive: true, force: true });
});

test.serial('a name ending in Resource names the same class', async (t) => {
  const result = await generate('GizmoResource', 'label:string', '-a', 'index');
  t.is(result.code, 0, result.err);
  t.regex(readFileSync(join(dir, 'app/resources/gizmo-resource.ts'), 'utf8'), /export class GizmoResource extends Resource/);
});

test.serial('without a name and without a terminal it says what is missing', async (t) => {
  const result = await runMural(['generate', 'resource'], dir);
  t.is(result.code, 2);
  t.regex(result.err, /Give the resource name/);
});

test.serial('the generated code compiles under tsc --strict and its tests pass', async (t) => {
  const tsc = join(repo, 'node_modules/.bin/tsc');
  await t.notThrowsAsync(run(tsc, ['--noEmit', '-p', join(dir, 'tsconfig.json')], { cwd: repo }));
  const ava = join(repo, 'node_modules/.bin/ava');
  const { stdout } = await run(ava, [`test/generated-${process.pid}/test/resources/employee-resource.test.ts`, `test/generated-${process.pid}/test/resources/team-member-resource.test.ts`], {
    cwd: repo,
    env: { ...process.env, DATABASE_URL: '' },
  });
  t.regex(stdout, /9 tests passed/);
});

test.serial('a routes file of the application without the markers is left alone; the lines to add are shown', async (t) => {
  const app = join(dir, 'own-routes');
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, 'mural.config.ts'), `import { defineConfig } from 'mural-cli';\nexport default defineConfig({ resources: [], generator: { routes: 'server.ts' } });\n`);
  const server = `import express from 'express';\nexport const app = express();\n`;
  writeFileSync(join(app, 'server.ts'), server);
  const result = await runMural(['generate', 'resource', 'Gadget', 'name:string'], app);
  t.is(result.code, 0, result.err);
  t.is(readFileSync(join(app, 'server.ts'), 'utf8'), server);
  t.regex(result.out, /note server\.ts has no \/\/ mural:imports and \/\/ mural:routes markers; register the controller there yourself:\n {2}import \{ gadgetController \} from '\.\/app\/controllers\/gadget-controller\.ts';\n {2}routes\.use\(gadgetController\);\n\nRun its test/);
  t.notRegex(result.out, /update server\.ts/);
});
