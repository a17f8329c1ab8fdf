import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { muralConfig } from '../config.ts';
import { InvalidQueryError } from '../errors/index.ts';

/**
 * Opaque pagination cursors: the sort values of one record and its id,
 * bound to the Resource type and the sort they were read under, signed so
 * that a client can neither forge a position nor reuse a cursor with
 * another sort. Not encrypted: the values are those the record renders anyway
 * (an attribute a client may not read is not sortable by it either).
 *
 *   base64url(JSON { s: signature, v: values }) "." base64url(HMAC-SHA256)[0..22]
 */

/** The longest cursor accepted: a few sort values and an id, with room to spare. */
const MAX_TOKEN_LENGTH = 4096;
const MAC_LENGTH = 16;

/** A sort value as JSON carries it: dates are tagged, so that they read back as dates. */
type CursorValue = string | number | boolean | null | { d: string };

let processSecret: Buffer | undefined;

function secret(): Buffer {
  if (muralConfig.cursorSecret) return Buffer.from(muralConfig.cursorSecret);
  processSecret ??= randomBytes(32);
  return processSecret;
}

function mac(body: string): Buffer {
  return createHmac('sha256', secret()).update(body).digest().subarray(0, MAC_LENGTH);
}

/** The cursor of a record at `values` (its sort values, the id last) under `signature`. */
export function encodeCursor(signature: string, values: readonly unknown[]): string {
  const body = Buffer.from(JSON.stringify({ s: signature, v: values.map(toJson) })).toString('base64url');
  return `${body}.${mac(body).toString('base64url')}`;
}

/**
 * The values a cursor carries, or a 400 at `parameter` when it is malformed,
 * was not signed by this server, or was made for another Resource or sort.
 */
export function decodeCursor(token: unknown, signature: string, length: number, parameter: string): unknown[] {
  const invalid = (why: string) => new InvalidQueryError('invalid_cursor', `${parameter} ${why}; use a cursor from this endpoint's links`, { parameter });
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) throw invalid('is not a cursor');
  const [body, signed, ...rest] = token.split('.');
  if (!body || !signed || rest.length > 0) throw invalid('is not a cursor');
  const expected = mac(body);
  const given = Buffer.from(signed, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid('is not a cursor this server issued');
  const payload = parse(Buffer.from(body, 'base64url').toString('utf8'));
  if (!payload || typeof payload.s !== 'string' || !Array.isArray(payload.v)) throw invalid('is not a cursor');
  if (payload.s !== signature || payload.v.length !== length) throw invalid('was issued for another sort or resource');
  return payload.v.map((value: unknown) => fromJson(value, invalid));
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
