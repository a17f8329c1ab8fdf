/**
 * `npm run pack`: builds both packages and packs each into a tarball, what
 * `npm install` takes until they are published:
 *
 *   npm run pack                    → mural-<version>.tgz, mural-cli-<version>.tgz here
 *   npm run pack -- --out ../dir    → into ../dir
 */
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { buildPackages, DEFAULT_OUT, type BuiltPackages } from './build.ts';

const run = promisify(execFile);

/** `npm pack` of each built package into `destination`; the tarballs' paths. */
export async function packPackages(directories: BuiltPackages, destination: string): Promise<BuiltPackages> {
  mkdirSync(destination, { recursive: true });
  const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', destination, directories.mural, directories['mural-cli']], { maxBuffer: 16 << 20 });
  const [mural, cli] = stdout.trim().split('\n').slice(-2).map((name) => join(destination, name.trim()));
  if (!mural?.includes('mural-') || !cli?.includes('mural-cli-')) throw new Error(`npm pack answered:\n${stdout}`);
  return { mural, 'mural-cli': cli };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--out');
  const destination = resolve(at < 0 ? '.' : (process.argv[at + 1] ?? '.'));
  const tarballs = await packPackages(await buildPackages(DEFAULT_OUT), destination);
  for (const tarball of Object.values(tarballs)) console.log(tarball);
}
