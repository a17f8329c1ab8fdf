import { encodeCursor } from '../query/cursor-token.ts';
import type { KeysetRequest } from '../query/query-plan.ts';

/** The cursors of the pages around a cursor page; null where no page is known to be. */
export interface PageCursors {
  /** `page[before]` for the page preceding this one. */
  readonly prev: string | null;
  /** `page[after]` for the page following this one. */
  readonly next: string | null;
}

/** The cursor of one record under the keyset: its value for each key. */
export function recordCursor(keyset: KeysetRequest, record: unknown): string {
  const values = keyset.keys.map((key) => (record as Record<string, unknown>)[key.column]);
  return encodeCursor(keyset.signature, values);
}

/**
 * Forward from a position, the page's last record leads on when more were
 * read, and its first leads back; from the start, nothing is behind. An
 * empty page past a position still leads back, with the request's own
 * cursor. Backward, the same with the ends swapped.
 */
export function pageCursors(keyset: KeysetRequest, records: readonly unknown[], more: boolean): PageCursors {
  const first = records.length > 0 ? recordCursor(keyset, records[0]) : keyset.token;
  const last = records.length > 0 ? recordCursor(keyset, records.at(-1)) : keyset.token;
  const positioned = keyset.values !== undefined;
  if (keyset.direction === 'after') {
    return { prev: positioned ? (first ?? null) : null, next: more ? (last ?? null) : null };
  }
  return { prev: more ? (first ?? null) : null, next: positioned ? (last ?? null) : null };
}
