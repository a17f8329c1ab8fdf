import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXAMPLE_CONFIG, runMural, useScratchDatabase } from '../support/cli.ts';

useScratchDatabase('guards_types');
const config = ['--config', EXAMPLE_CONFIG];

test.serial('mural guards lists guarded Resources, relationships and attributes with their guard', async (t) => {
  const table = await runMural(['guards', ...config]);
  t.is(table.code, 0);
  const rows = table.out.trim().split('\n').slice(2).map((line) => line.split(/\s+/));
  t.deepEqual(rows.filter((r) => r[1] === 'relationship'), [
    ['EmployeeResource', 'relationship', 'notes', 'readable', 'isAdmin'],
    ['EmployeeResource', 'relationship', 'notes', 'writable', 'isAdmin'],
  ]);
  t.true(rows.some((r) => r.join(' ') === 'EmployeeResource attribute salary readable isAdmin'));
  t.deepEqual(rows.filter((r) => r[1] === 'resource'), [['NoteResource', 'resource', 'notes', 'index,show,create,update,destroy', 'isAdmin']]);
  const json = JSON.parse((await runMural(['guards', '--format', 'json', ...config])).out);
  t.deepEqual(json[0], { resource: 'EmployeeResource', kind: 'relationship', name: 'notes', flag: 'readable', guard: 'isAdmin' });
});

test.serial('mural types writes TypeScript that compiles', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'mural-types-'));
  const out = join(dir, 'api-types.ts');
  const result = await runMural(['types', '--out', out, ...config]);
  t.is(result.code, 0, result.err);
  const source = readFileSync(out, 'utf8');
  t.regex(source, /export interface Employee \{/);
  t.regex(source, /type: "employees";/);
  t.regex(source, /first_name: string;/);
  t.regex(source, /salary\?: string;/, 'a guarded attribute is optional');
  t.regex(source, /positions\?: Array<Position>;/);
  t.regex(source, /notable\?: Department \| Employee \| Team \| null;/);
  writeFileSync(join(dir, 'use.ts'), `import type { Employee } from './api-types.ts';\nexport const e: Employee = { id: '1', type: 'employees', first_name: 'A', last_name: 'B', age: 3, created_at: '', updated_at: '' };\n`);
  const tsc = join(process.cwd(), 'node_modules', '.bin', 'tsc');
  t.notThrows(() => execFileSync(tsc, ['--noEmit', '--strict', '--allowImportingTsExtensions', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', join(dir, 'use.ts')], { stdio: 'pipe', cwd: dir }));
});
