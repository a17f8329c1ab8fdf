/**
 * Byte-for-byte comparison of response bodies: the baselines are measured
 * only once they send exactly what Mural sends, and a difference names its
 * first offset with the text around it on both sides.
 */
const CONTEXT = 120;

/** The offset of the first differing UTF-8 byte, or -1 when the bodies are equal. */
export function firstDifference(expected: string, actual: string): number {
  const a = Buffer.from(expected);
  const b = Buffer.from(actual);
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : length;
}

/** Why `actual` is not `expected`, or undefined when they are the same bytes. */
export function describeDifference(expected: string, actual: string, what: string): string | undefined {
  const at = firstDifference(expected, actual);
  if (at === -1) return undefined;
  const around = (text: string) => Buffer.from(text).subarray(Math.max(0, at - CONTEXT), at + CONTEXT).toString();
  return `${what} differs from Mural's body at byte ${at} (${Buffer.byteLength(expected)} bytes expected, ${Buffer.byteLength(actual)} received):\n`
    + `  Mural:    …${around(expected)}…\n  received: …${around(actual)}…`;
}

export function assertSameBytes(expected: string, actual: string, what: string): void {
  const difference = describeDifference(expected, actual, what);
  if (difference) throw new Error(difference);
}
