import { versionOfTag } from '../conditional/entity-tags.ts';
import { BadRequestError } from '../errors/index.ts';
import type { Precondition } from './write-node.ts';

/**
 * `meta.version` on a written record, on the identifier naming one, or on
 * an atomic operation's `ref`: the version the write is conditional on, as
 * `If-Match` is for the record a URL names. A string (the token inside a
 * Mural ETag, or the whole tag) or an integer; `*` only asks that the record
 * exist. `pointer` is the object holding `meta`; a failure points at its
 * `meta/version`.
 */
export function metaVersion(meta: unknown, pointer: string): Precondition | undefined {
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return undefined;
  const version = (meta as { version?: unknown }).version;
  if (version === undefined) return undefined;
  const at = `${pointer}/meta/version`;
  if (typeof version === 'number' && Number.isInteger(version)) return { ifMatch: [String(version)], source: { pointer: at } };
  if (typeof version !== 'string' || version === '') {
    throw new BadRequestError('invalid_document', 'meta.version must be a version string', { pointer: at });
  }
  return { ifMatch: version === '*' ? '*' : [versionOfTag(version.replace(/^"|"$/g, ''))], source: { pointer: at } };
}
