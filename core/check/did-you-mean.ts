/**
 * Edit distance counting a swap of two neighbours as one edit (optimal
 * string alignment): `titel` is one edit from `title`, as a typist sees it.
 */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The valid name closest to `name`, if it is close enough to be the one
 * meant: at most a quarter of its letters off (at least one), case aside.
 * A far-off guess would send the reader after the wrong fix.
 */
export function closestName(name: string, valid: Iterable<string>): string | undefined {
  const wanted = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of new Set(valid)) {
    if (candidate === name) continue;
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return bestDistance <= Math.max(1, Math.ceil(name.length / 4)) ? best : undefined;
}

/** `; did you mean "title"?`, or nothing. */
export function didYouMean(name: string, valid: Iterable<string>): string {
  const match = closestName(name, valid);
  return match === undefined ? '' : `; did you mean "${match}"?`;
}
