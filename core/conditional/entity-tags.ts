import { BadRequestError } from '../errors/index.ts';

/** One entity tag of an `If-Match` or `If-None-Match` header: its opaque value (without quotes) and weakness. */
export interface EntityTag {
  readonly opaque: string;
  readonly weak: boolean;
}

/**
 * The versions a conditional write accepts: `'*'` (any, as long as the
 * record exists) or version tokens, as a record's ETag carries them.
 */
export type IfMatch = '*' | readonly string[];

/** More tags than any client needs: the list is compared against one record's version, but still bounded. */
const MAX_TAGS = 64;
const TAG = /^(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"$/;

/**
 * `*` or a comma-separated list of entity tags (RFC 9110 §8.8.3): anything
 * else is a 400 naming the header, so a client sending `If-Match: 3` learns
 * that tags are quoted rather than seeing its condition silently fail.
 */
export function parseEntityTags(value: string, header: string): '*' | EntityTag[] {
  const trimmed = value.trim();
  if (trimmed === '*') return '*';
  const parts = trimmed.split(',').map((part) => part.trim()).filter((part) => part !== '');
  if (parts.length === 0 || parts.length > MAX_TAGS) throw malformed(header, `${header} takes "*" or 1 to ${MAX_TAGS} quoted entity tags`);
  return parts.map((part) => {
    const match = TAG.exec(part);
    if (!match) throw malformed(header, `${header} holds ${JSON.stringify(part.slice(0, 80))}, which is not an entity tag: tags are quoted, as in "3" or W/"3"`);
    return { weak: match[1] !== undefined, opaque: match[2]! };
  });
}

/**
 * The record versions an `If-Match` header names. Its comparison is strong,
 * so weak tags never match; a Mural ETag is `"<version>.<body hash>"` on a
 * versioned record's responses, of which only the version counts here, so
 * any representation of the same version (another `include`, another
 * sparse fieldset) is a valid condition for a write.
 */
export function ifMatchVersions(value: string): IfMatch {
  const tags = parseEntityTags(value, 'If-Match');
  if (tags === '*') return '*';
  return tags.filter((tag) => !tag.weak).map((tag) => versionOfTag(tag.opaque));
}

/**
 * The record versions a write's `If-None-Match` names: `*` (the write fails
 * if the record exists, which it must for a PATCH or DELETE, so these always
 * fail or find nothing), or the versions of its tags, compared weakly as
 * RFC 9110 asks of this header, so `W/"3"` counts.
 */
export function ifNoneMatchVersions(value: string): IfMatch {
  const tags = parseEntityTags(value, 'If-None-Match');
  return tags === '*' ? '*' : tags.map((tag) => versionOfTag(tag.opaque));
}

/** The version part of an opaque tag: what precedes the first dot, or all of it. */
export function versionOfTag(opaque: string): string {
  const dot = opaque.indexOf('.');
  return dot === -1 ? opaque : opaque.slice(0, dot);
}

/**
 * Whether `If-None-Match` holds for a representation tagged `current`:
 * false (answer 304) when it lists that tag, compared weakly as the RFC
 * asks, or is `*`.
 */
export function noneMatch(value: string, current: string): boolean {
  const tags = parseEntityTags(value, 'If-None-Match');
  if (tags === '*') return false;
  return !tags.some((tag) => tag.opaque === current);
}

function malformed(header: string, detail: string): BadRequestError {
  return new BadRequestError('invalid_header', detail, { header });
}
