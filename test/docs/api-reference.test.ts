/**
 * docs/api is what `npm run docs:api` generates from today's declarations
 * and doc comments: a changed export or comment without a regenerated
 * reference fails here.
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repo } from '../support/packed-app.ts';

const run = promisify(execFile);

test('docs/api is up to date (npm run docs:api -- --check)', async (t) => {
  t.timeout(5 * 60_000);
  const result = await run(process.execPath, [join(repo, 'scripts/api-docs/generate.mjs'), '--check'], { cwd: repo, maxBuffer: 16 << 20 }).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
  );
  t.is(result.code, 0, result.out);
  t.regex(result.out, /docs\/api is up to date/);
});
