/**
 * A package ships the TypeScript its maps point at, so that stack traces
 * (with --enable-source-maps) and editors lead to Mural's own lines. esbuild
 * writes a map's sources relative to wherever the build ran; each becomes
 * relative to the package, and the file is copied into it.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { packageOfSource, type PackageName } from '../entry-points.ts';
import { ROOT, slashed } from './paths.ts';

/** Points the bundle's map at the package's copy of each source; returns the repository-relative sources. */
export function relocateBundleMap(mapFile: string, packageDirectory: string, owner: PackageName): string[] {
  const map = JSON.parse(readFileSync(mapFile, 'utf8')) as { sources: string[] };
  const sources: string[] = [];
  map.sources = map.sources.map((entry) => {
    const source = slashed(relative(ROOT, resolve(dirname(mapFile), entry)));
    // the synthetic entry that lists the loaders has no file behind it
    if (source.startsWith('..') || !source.endsWith('.ts')) return entry;
    if (packageOfSource(source) !== owner && owner === 'mural') throw new Error(`the runtime bundle reached ${source}, which the CLI ships`);
    sources.push(source);
    return posix.relative(slashed(relative(packageDirectory, dirname(mapFile))), source);
  });
  writeFileSync(mapFile, JSON.stringify(map));
  return sources;
}

/** Copies repository files into the package at the same relative paths. */
export function copySources(sources: Iterable<string>, packageDirectory: string): void {
  for (const source of sources) {
    const target = join(packageDirectory, source);
    mkdirSync(dirname(target), { recursive: true });
    cpSync(join(ROOT, source), target);
  }
}
