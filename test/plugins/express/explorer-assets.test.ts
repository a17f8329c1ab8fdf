import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { explorerAssets } from '../../../plugins/express/explorer-assets.ts';
import { EXPLORER_DIRECTORY } from '../../../plugins/express/explorer-files.ts';

/** The explorer's files: what ships, its size budget (the README's), nothing fetched from elsewhere. */

/** The README's budget for the page's files, gzipped. */
const BUDGET_BYTES = 100 * 1024;

test(`the page's files together stay under ${BUDGET_BYTES / 1024} kB gzipped`, (t) => {
  const files = readdirSync(EXPLORER_DIRECTORY);
  const gzipped = files.reduce((sum, name) => sum + gzipSync(readFileSync(join(EXPLORER_DIRECTORY, name)), { level: 9 }).length, 0);
  t.log(`${files.length} files, ${gzipped} bytes gzipped`);
  t.true(gzipped < BUDGET_BYTES, `${gzipped} bytes`);
});

test('every file in the folder is served, and none names another origin', (t) => {
  const assets = explorerAssets();
  t.deepEqual([...assets.keys()], readdirSync(EXPLORER_DIRECTORY).sort());
  for (const [name, asset] of assets) t.notRegex(asset.body.toString('utf8'), /https?:\/\/|\/\/cdn|@import/, name);
});

test('the page\'s modules import each other by relative path only, with no framework or bundler', (t) => {
  for (const [name, asset] of explorerAssets()) {
    if (!name.endsWith('.js')) continue;
    const specifiers = [...asset.body.toString('utf8').matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]!);
    for (const specifier of specifiers) t.regex(specifier, /^\.\/[\w-]+\.js$/, `${name} imports ${specifier}`);
  }
});
