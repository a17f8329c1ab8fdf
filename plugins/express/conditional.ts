import { hash as digest } from 'node:crypto';
import type { Request, Response } from 'express';
import { ifMatchVersions, ifNoneMatchVersions, noneMatch, parseEntityTags, PreconditionFailed, versionOfTag, type IfMatch } from '../../core/index.ts';

/**
 * A strong entity tag for the bytes of a response (a string stands for its UTF-8): a SHA-1 of them
 * (base64url), preceded by the record's version and a dot on a versioned
 * record's responses (`"7.Xq3…"`), so that `If-Match` can compare the version
 * alone while `If-None-Match` compares the representation. Strong, since it
 * changes with every byte: what a guard context hides changes it too.
 */
export function entityTag(bytes: Buffer | string, version?: string): string {
  // the one-shot digest: no Hash object per response
  const hash = digest('sha1', bytes, 'base64url');
  return `"${version === undefined ? '' : `${version}.`}${hash}"`;
}

/** Whether a GET's `If-None-Match` lists the representation tagged `tag` (or is `*`): answer 304. */
export function notModified(req: Request, tag: string): boolean {
  const header = req.headers['if-none-match'];
  return header !== undefined && !noneMatch(header, tag.slice(1, -1));
}

/** The versions a write's `If-Match` names, undefined without the header; a malformed one is a 400. */
export function ifMatchOf(req: Request): IfMatch | undefined {
  const header = req.headers['if-match'];
  return header === undefined ? undefined : ifMatchVersions(header);
}

/** The versions a write's `If-None-Match` excludes, undefined without the header; `*` fails on any record that exists. */
export function ifNoneMatchOf(req: Request): IfMatch | undefined {
  const header = req.headers['if-none-match'];
  return header === undefined ? undefined : ifNoneMatchVersions(header);
}

/**
 * A GET's `If-Match` (RFC 9110 §13.1.1): a 412 unless it is `*` (the answer
 * exists) or lists the answer's tag, compared strongly; for a versioned
 * record, a tag of the same version (another representation of it) also
 * matches, as it does for writes. Only asked of 2xx answers: a 404 stays one.
 */
export function checkIfMatch(req: Request, tag: string, version: string | undefined): void {
  const header = req.headers['if-match'];
  if (header === undefined) return;
  const tags = parseEntityTags(header, 'If-Match');
  if (tags === '*') return;
  const opaque = tag.slice(1, -1);
  const matches = tags.some((t) => !t.weak && (t.opaque === opaque || (version !== undefined && versionOfTag(t.opaque) === version)));
  if (!matches) throw new PreconditionFailed(`The current representation's ETag is ${tag}, which If-Match does not list`);
}

export interface CachePolicy {
  /** The Resource's `cacheControl`, default `no-cache`. */
  cacheControl: string;
  /** Request headers the context reads, listed in `Vary`. */
  vary: readonly string[];
}

/** `Cache-Control` and `Vary` of a GET response (its 304 included). */
export function applyCachePolicy(res: Response, policy: CachePolicy): void {
  res.setHeader('Cache-Control', policy.cacheControl);
  if (policy.vary.length === 0) return;
  const current = res.getHeader('Vary');
  const listed = typeof current === 'string' && current !== '' ? current.split(/\s*,\s*/) : [];
  const merged = [...listed, ...policy.vary.filter((name) => !listed.some((l) => l.toLowerCase() === name.toLowerCase()))];
  res.setHeader('Vary', merged.join(', '));
}

/**
 * The cache policy of a Resource's GET responses under a router's options.
 * A context function makes responses depend on the request in ways a cache
 * cannot see unless `vary` names the headers it reads: without `vary`,
 * `private` keeps shared caches from storing them, so one user's (an
 * admin's) response never reaches another.
 */
export function cachePolicy(resourceCacheControl: string | undefined, hasContext: boolean, vary: readonly string[] | undefined): CachePolicy {
  const base = resourceCacheControl ?? 'no-cache';
  if (!hasContext || vary !== undefined || /\b(private|no-store)\b/i.test(base)) return { cacheControl: base, vary: vary ?? [] };
  return { cacheControl: `private, ${base}`, vary: [] };
}
