import test from 'ava';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EXAMPLE_CONFIG, runMural, useScratchDatabase } from '../support/cli.ts';

useScratchDatabase('schema');
const scratch = mkdtempSync(join(tmpdir(), 'mural-schema-'));
const config = ['--config', EXAMPLE_CONFIG];

test.serial('schema export writes the same file every time', async (t) => {
  const out = join(scratch, 'schema.json');
  t.is((await runMural(['schema', 'export', '--out', out, ...config])).code, 0);
  const first = readFileSync(out, 'utf8');
  t.is((await runMural(['schema', 'export', '--out', out, ...config])).code, 0);
  t.is(readFileSync(out, 'utf8'), first);
  const schema = JSON.parse(first);
  t.deepEqual(Object.keys(schema), ['resources', 'endpoints', 'types']);
  t.deepEqual(schema.resources.map((r: { name: string }) => r.name), [...schema.resources.map((r: { name: string }) => r.name)].sort());
  const employees = schema.resources.find((r: { type: string }) => r.type === 'employees');
  t.deepEqual(employees.attributes.salary, { type: 'big_decimal', readable: 'guarded', writable: 'guarded', description: null });
  t.deepEqual(employees.relationships.notes, { type: 'polymorphic_has_many', resource: 'NoteResource', guard: true });
  t.deepEqual(employees.stats.age, ['average', 'sum', 'maximum', 'minimum']);
  t.deepEqual(schema.endpoints['/api/v1/employees'].actions.index, { resource: 'EmployeeResource' });
  t.deepEqual(schema.types.big_decimal.kind, 'scalar');
});

test.serial('the committed example schema is up to date', async (t) => {
  const result = await runMural(['schema', 'check', ...config]);
  t.is(result.code, 0, result.out + result.err);
  t.regex(result.out, /No breaking changes/);
});

test.serial('schema check reports a relationship that became guarded, and fails', async (t) => {
  const old = join(scratch, 'old.json');
  t.is((await runMural(['schema', 'export', '--out', old, ...config])).code, 0);
  const schema = JSON.parse(readFileSync(old, 'utf8'));
  const positions = schema.resources.find((r: { type: string }) => r.type === 'positions');
  positions.relationships.employee.guard = undefined;
  const employees = schema.resources.find((r: { type: string }) => r.type === 'employees');
  delete employees.relationships.notes.guard; // the committed schema predates the guard
  employees.attributes.retired = { type: 'boolean', readable: true, writable: true, description: null };
  writeFileSync(old, JSON.stringify(schema));
  const result = await runMural(['schema', 'check', '--old', old, ...config]);
  t.is(result.code, 1);
  t.deepEqual(result.out.trim().split('\n'), [
    'EmployeeResource: attribute :retired was removed.',
    'EmployeeResource: relationship :notes became guarded.',
    '2 breaking changes.',
  ]);
  const json = await runMural(['schema', 'check', '--old', old, '--format', 'json', ...config]);
  t.is(json.code, 1);
  t.deepEqual(JSON.parse(json.out), {
    compatible: false,
    breaking: ['EmployeeResource: attribute :retired was removed.', 'EmployeeResource: relationship :notes became guarded.'],
  });
});

test.serial('an additive change passes the check', async (t) => {
  const old = join(scratch, 'additive.json');
  await runMural(['schema', 'export', '--out', old, ...config]);
  const schema = JSON.parse(readFileSync(old, 'utf8'));
  const employees = schema.resources.find((r: { type: string }) => r.type === 'employees');
  delete employees.attributes.age;
  delete employees.sorts.age;
  delete employees.filters.age;
  delete employees.stats.age;
  writeFileSync(old, JSON.stringify(schema));
  t.is((await runMural(['schema', 'check', '--old', old, ...config])).code, 0);
});

test.serial('schema export refuses to overwrite a schema with breaking changes unless --force', async (t) => {
  const path = join(scratch, 'guarded.json');
  await runMural(['schema', 'export', '--out', path, ...config]);
  const schema = JSON.parse(readFileSync(path, 'utf8'));
  schema.resources.find((r: { type: string }) => r.type === 'teams').attributes.motto = { type: 'string', readable: true, writable: true, description: null };
  writeFileSync(path, JSON.stringify(schema));
  const refused = await runMural(['schema', 'export', '--out', path, ...config]);
  t.is(refused.code, 1);
  t.regex(refused.err, /TeamResource: attribute :motto was removed\./);
  t.regex(readFileSync(path, 'utf8'), /motto/);
  t.is((await runMural(['schema', 'export', '--out', path, '--force', ...config])).code, 0);
  t.notRegex(readFileSync(path, 'utf8'), /motto/);
});

test.serial('a missing committed schema is exit 2', async (t) => {
  const result = await runMural(['schema', 'check', '--old', join(scratch, 'nope.json'), ...config]);
  t.is(result.code, 2);
  t.regex(result.err, /No schema at .*nope\.json; run mural schema export first/);
});

test.serial('counts read as English for one and for many', async (t) => {
  // inside the repository, so the config imports `mural` by its package name
  const app = resolve(`test/generated-schema-${process.pid}`);
  t.teardown(() => rmSync(app, { recursive: true, force: true }));
  mkdirSync(app, { recursive: true });
  writeFileSync(join(app, 'mural.config.ts'), `import { Resource } from 'mural';
import { defineConfig } from 'mural-cli';

class GadgetResource extends Resource {
  static {
    this.attribute('name', 'string');
    this.attribute('size', 'integer');
  }
}
// no model: only described, never queried
export default defineConfig({ resources: [GadgetResource], checkResources: false });
`);
  const exported = await runMural(['schema', 'export'], app);
  t.is(exported.out, `Wrote 1 resource to ${join(app, 'schema.json')}\n`, exported.err);
  const schema = JSON.parse(readFileSync(join(app, 'schema.json'), 'utf8'));
  schema.resources[0].attributes.color = { type: 'string', readable: true, writable: true, description: null };
  writeFileSync(join(app, 'schema.json'), JSON.stringify(schema));
  const checked = await runMural(['schema', 'check'], app);
  t.deepEqual(checked.out.trim().split('\n'), ['GadgetResource: attribute :color was removed.', '1 breaking change.']);
  const refused = await runMural(['schema', 'export'], app);
  t.regex(refused.err, /schema\.json not written: 1 breaking change\. Use --force to write it anyway\.\n$/);
});
