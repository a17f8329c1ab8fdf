/**
 * An object with no prototype, for maps keyed by what a client sent: a key
 * such as `__proto__`, `constructor` or `toString` is then an ordinary own
 * key, so assigning it can never reach Object.prototype and reading it never
 * finds an inherited function.
 */
export function dictionary<T = unknown>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** Copies `source`'s own enumerable entries into `target` by definition, never through a setter. */
export function assignEntries<T>(target: Record<string, T>, source: object): Record<string, T> {
  for (const [key, value] of Object.entries(source)) target[key] = value as T;
  return target;
}
