import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { muralConfig } from '../config.ts';
import { InvalidQueryError } from '../errors/index.ts';

/**
 * Opaque pagination cursors: the sort values of one record and its id,
 * bound to the Resource type and the sort they were read under, sealed with
 * AES-256-GCM so that a client can neither read them (a Resource may sort
 * by an attribute it does not render), nor forge a position, nor reuse a
 * cursor with another sort.
 *
 *   base64url(iv ‖ ciphertext of JSON { s: signature, v: values } ‖ tag)
 *
 * The IV is derived from the plaintext (as in SIV), so one record has one
 * cursor: an item's `meta.page.cursor` equals the `next` link it ends.
 */

/** The longest cursor accepted: a few sort values and an id, with room to spare. */
const MAX_TOKEN_LENGTH = 4096;
const IV_LENGTH = 12;
const TAG_LENGTH = 16;

/** A sort value as JSON carries it: dates are tagged, so that they read back as dates. */
type CursorValue = string | number | boolean | null | { d: string };

interface Keys {
  readonly secret: string | undefined;
  readonly seal: Buffer;
  readonly iv: Buffer;
}

let keys: Keys | undefined;
let processSecret: Buffer | undefined;

/** The encryption key and the IV key, derived from the configured secret (or this process's own). */
function keysNow(): Keys {
  const configured = muralConfig.cursorSecret;
  if (keys && keys.secret === configured) return keys;
  processSecret ??= randomBytes(32);
  const root = configured ? Buffer.from(configured) : processSecret;
  const derive = (purpose: string) => createHmac('sha256', root).update(purpose).digest();
  keys = { secret: configured, seal: derive('mural cursor: encryption'), iv: derive('mural cursor: iv') };
  return keys;
}

/** The cursor of a record at `values` (its sort values, the id last) under `signature`. */
export function encodeCursor(signature: string, values: readonly unknown[]): string {
  const { seal, iv: ivKey } = keysNow();
  const plaintext = Buffer.from(JSON.stringify({ s: signature, v: values.map(toJson) }));
  const iv = createHmac('sha256', ivKey).update(plaintext).digest().subarray(0, IV_LENGTH);
  const cipher = createCipheriv('aes-256-gcm', seal, iv);
  const sealed = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
}

/**
 * The values a cursor carries, or a 400 at `parameter` when it is malformed,
 * was not issued by this server, or was made for another Resource or sort.
 */
export function decodeCursor(token: unknown, signature: string, length: number, parameter: string): unknown[] {
  const invalid = (why: string) => new InvalidQueryError('invalid_cursor', `${parameter} ${why}; use a cursor from this endpoint's links`, { parameter });
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH || !/^[\w-]+$/.test(token)) throw invalid('is not a cursor');
  const bytes = Buffer.from(token, 'base64url');
  // only the canonical spelling: another one decoding to the same bytes is not a cursor this server wrote
  if (bytes.length <= IV_LENGTH + TAG_LENGTH || bytes.toString('base64url') !== token) throw invalid('is not a cursor');
  const plaintext = open(bytes);
  if (!plaintext) throw invalid('is not a cursor this server issued');
  const payload = parse(plaintext);
  if (!payload || typeof payload.s !== 'string' || !Array.isArray(payload.v)) throw invalid('is not a cursor');
  if (payload.s !== signature || payload.v.length !== length) throw invalid('was issued for another sort or resource');
  return payload.v.map((value: unknown) => fromJson(value, invalid));
}

/** The plaintext of a sealed cursor, or undefined when it was altered or sealed under another key. */
function open(bytes: Buffer): string | undefined {
  const decipher = createDecipheriv('aes-256-gcm', keysNow().seal, bytes.subarray(0, IV_LENGTH));
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_LENGTH));
  try {
    return Buffer.concat([decipher.update(bytes.subarray(IV_LENGTH, bytes.length - TAG_LENGTH)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

function parse(text: string): { s?: unknown; v?: unknown } | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as { s?: unknown; v?: unknown }) : undefined;
  } catch {
    return undefined;
  }
}

function toJson(value: unknown): CursorValue {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return { d: value.toISOString() };
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  // decimals some drivers return as objects: their text compares as the number
  return String(value);
}

function fromJson(value: unknown, invalid: (why: string) => Error): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  const date = typeof value === 'object' && typeof (value as { d?: unknown }).d === 'string' ? new Date((value as { d: string }).d) : undefined;
  if (date && !Number.isNaN(date.getTime())) return date;
  throw invalid('is not a cursor');
}
