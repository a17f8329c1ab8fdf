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

test.serial('an unknown type or bad name is a clear error and writes nothing', async (t) => {
  const result = await generate('Widget', 'size:huge');
  t.is(result.code, 2);
  t.regex(result.err, /Unknown type "huge" in "size:huge"; valid types: string, integer, integer_id/);
  t.false(existsSync(join(dir, 'app/resources/widget-resource.ts')));
  t.is((await generate('9lives')).code, 2);
  t.is((await generate('Gadget', 'Size:string')).code, 2);
  t.is((await generate('Gadget', 'size:string', '-a', 'index', 'explode')).code, 2);
  t.false(existsSync(join(dir, 'app/resources/gadget-resource.ts')));
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
  t.regex(result.out, /note server\.ts has no \/\/ mural:imports and \/\/ mural:routes markers; register the controller there yourself:\n {2}import \{ gadgetController \} from '\.\/app\/controllers\/gadget-controller\.ts';\n {2}routes\.use\(gadgetController\);\n$/);
  t.notRegex(result.out, /update server\.ts/);
});
