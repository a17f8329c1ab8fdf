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

/** Deeper than this, copyPlain hands values on as they are (in-process parameters may even be cyclic). */
const MAX_COPY_DEPTH = 16;

/**
 * A deep copy of the arrays and plain objects in `value` (objects become
 * dictionaries); anything else (a Date, a model, a function) is handed on
 * as it is.
 */
export function copyPlain(value: unknown, depth = 0): unknown {
  if (typeof value !== 'object' || value === null || depth >= MAX_COPY_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => copyPlain(item, depth + 1));
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== null && prototype !== Object.prototype) return value;
  const copy = dictionary();
  for (const name of Object.keys(value)) copy[name] = copyPlain((value as Record<string, unknown>)[name], depth + 1);
  return copy;
}
