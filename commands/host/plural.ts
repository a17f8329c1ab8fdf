/** `resource` for 1, `resources` otherwise; `plural` for nouns that do not take an `s` (`match`, `matches`). */
export function noun(n: number, singular: string, plural = `${singular}s`): string {
  return n === 1 ? singular : plural;
}

/** `1 resource`, `3 resources`, `0 resources`: a count and its noun, which agree. */
export function count(n: number, singular: string, plural?: string): string {
  return `${n} ${noun(n, singular, plural)}`;
}
