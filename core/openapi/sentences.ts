/** Description parts joined into one text, leaving out the absent ones. */
export function joined(...parts: Array<string | null | undefined>): string {
  return parts.filter((p): p is string => typeof p === 'string' && p !== '').join(' ');
}
