import { createHash } from 'node:crypto';
import { extname } from 'node:path';
import { explorerFiles } from './explorer-files.ts';

/** One file of the explorer page, held in memory: a handful of small files read once. */
export interface ExplorerAsset {
  body: Buffer;
  type: string;
  etag: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
};

let loaded: ReadonlyMap<string, ExplorerAsset> | undefined;

/** The page's files by name (`index.html`, `explorer.js`…), with their types and ETags, built on first use. */
export function explorerAssets(): ReadonlyMap<string, ExplorerAsset> {
  loaded ??= new Map(
    [...explorerFiles()]
      .filter(([name]) => Object.hasOwn(TYPES, extname(name)))
      .map(([name, body]) => [name, { body, type: TYPES[extname(name)]!, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` }]),
  );
  return loaded;
}
