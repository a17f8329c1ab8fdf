/**
 * "Did you mean" hints for a name that matches nothing: a filter, sort,
 * include or field of a query, a type or action given to the generator, a
 * Resource named on the command line. One helper, so every message words and
 * judges its guess the same way. The names it is given are the ones the
 * message lists anyway, so a hint never reveals a name the caller would not.
 */

/**
 * Edits (insert, delete, substitute, swap two neighbours) between `a` and `b`,
 * case-insensitive: `nme` → `name` is 1, `nmae` → `name` is 1.
 */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  // three rows of the dynamic programme: the swap looks two rows back
  let before: number[] = [];
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const current = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let best = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) best = Math.min(best, before[j - 2]! + 1);
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[t.length]!;
}

/**
 * The known name `given` most likely meant, or undefined when none is close:
 * a word `aliases` maps to a known name (`year` → `integer` for types), the
 * same name in another case, the one name it begins (`first` → `first_name`),
 * or the nearest within a third of its length in edits (at least one).
 * Ties go to the name listed first.
 */
export function nearestName(given: string, known: Iterable<string>, aliases: Readonly<Record<string, string>> = {}): string | undefined {
  const names = [...known].filter((name) => name !== given);
  if (names.length === 0 || given === '') return undefined;
  const alias = Object.hasOwn(aliases, given.toLowerCase()) ? aliases[given.toLowerCase()] : undefined;
  if (alias !== undefined && names.includes(alias)) return alias;
  const lower = given.toLowerCase();
  const prefixed = names.filter((name) => name.toLowerCase().startsWith(lower));
  if (given.length >= 3 && prefixed.length === 1) return prefixed[0];
  const limit = Math.max(1, Math.floor(given.length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(given, name);
    if (distance <= limit && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** `did you mean "name"? ` (with its trailing space) to put before a list of the valid names, or nothing. */
export function didYouMean(given: string, known: Iterable<string>, aliases?: Readonly<Record<string, string>>): string {
  const name = nearestName(given, known, aliases);
  return name === undefined ? '' : `did you mean "${name}"? `;
}
