/**
 * Pieces of JSON text, each exactly what `JSON.stringify` writes for the same
 * value, for documents written as text rather than stringified as objects
 * (record-serializer.ts, render-document-text.ts).
 */

/** Characters JSON.stringify escapes: quotes, backslashes, control characters, surrogates (it writes lone ones as \u escapes). */
export const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** `JSON.stringify(text)`, about twice as fast for the common string with nothing to escape. */
export function quoted(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/** A member's value as JSON text; undefined where `JSON.stringify` leaves the member out (undefined, a function). */
export function jsonText(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return quoted(value);
    case 'number':
      // what JSON.stringify writes for a number, without its generic path
      return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      // null, objects (Dates and anything else with toJSON), bigints (which throw, as they would)
      return JSON.stringify(value);
  }
}

/**
 * Whether `JSON.stringify` would move this key ahead of the others: an
 * object's array-index keys (`"0"`, `"12"`) come first, in numeric order,
 * whatever the order they were set in. A layout with such a name cannot be
 * written member by member in declaration order.
 */
export function isArrayIndexKey(name: string): boolean {
  return /^(0|[1-9]\d*)$/.test(name) && Number(name) < 2 ** 32 - 1;
}
