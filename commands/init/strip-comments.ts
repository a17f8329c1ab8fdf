/**
 * The source with its comments blanked (same length, newlines kept), so that
 * a commented-out `new Sequelize(` or `class X extends Resource` is not taken
 * for code. Strings and template literals are skipped whole; a regular
 * expression literal holding a quote can confuse it, which costs a missed or
 * extra candidate at worst, never a wrong write: `mural init` asks or takes a
 * flag when detection is not clear.
 */
export function stripComments(source: string): string {
  const out = source.split('');
  let i = 0;
  while (i < source.length) {
    const char = source[i]!;
    const next = source[i + 1];
    if (char === '/' && next === '/') {
      while (i < source.length && source[i] !== '\n') out[i++] = ' ';
    } else if (char === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? source.length : end + 2;
      for (; i < stop; i++) if (source[i] !== '\n') out[i] = ' ';
    } else if (char === '"' || char === "'" || char === '`') {
      i = skipString(source, i);
    } else {
      i++;
    }
  }
  return out.join('');
}

/** The index after the string literal opening at `start`. */
function skipString(source: string, start: number): number {
  const quote = source[start];
  let i = start + 1;
  while (i < source.length) {
    const char = source[i];
    if (char === '\\') i += 2;
    else if (char === quote) return i + 1;
    else if (char === '\n' && quote !== '`') return i;
    else i++;
  }
  return i;
}
