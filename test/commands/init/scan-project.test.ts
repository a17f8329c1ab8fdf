import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { SCAN_LIMITS, scanProject } from '../../../commands/init/scan-project.ts';

function project(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'mural-scan-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

test('reads the sources, comments blanked; not dependencies, build output, tests, hidden directories or links', (t) => {
  const root = project({
    'src/db.ts': '// the connection\nexport const a = 1;\n',
    'src/types.d.ts': 'export type A = 1;\n',
    'src/db.test.ts': 'x',
    'src/db.spec.mjs': 'x',
    'src/types/api.test-d.ts': 'x',
    'src/readme.md': 'x',
    'index.cjs': 'module.exports = 1;\n',
    'mural.config.ts': 'x',
    'node_modules/sequelize/index.js': 'x',
    'dist/db.js': 'x',
    'test/helpers.ts': 'x',
    '.cache/x.js': 'x',
  });
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  symlinkSync(join(root, 'src'), join(root, 'linked'));
  const scan = scanProject(root);
  t.deepEqual(scan.files.map((f) => f.path), ['index.cjs', 'src/db.ts']);
  t.is(scan.files[1]!.code, '                 \nexport const a = 1;\n');
  t.false(scan.truncated);
});

test('stops at its limits and says so; an oversized file is skipped', (t) => {
  const files: Record<string, string> = { 'src/huge.js': 'x'.repeat(SCAN_LIMITS.fileBytes + 1) };
  for (let i = 0; i <= SCAN_LIMITS.files; i++) files[`src/many/m${String(i).padStart(5, '0')}.js`] = '1;\n';
  const root = project(files);
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const scan = scanProject(root);
  t.is(scan.files.length, SCAN_LIMITS.files);
  t.true(scan.truncated);
  t.false(scan.files.some((f) => f.path === 'src/huge.js'));
});
