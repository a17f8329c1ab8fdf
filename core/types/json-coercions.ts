import { isPlainObject, nullable, parseJson } from './nullable.ts';

/**
 * A JSON object. Query strings carry it as JSON text, and SQLite and MySQL
 * may return JSON columns as text, so params and read parse strings; a body
 * value is already parsed JSON, so write does not.
 */
export const toHash = (name: string, parseStrings: boolean) =>
  nullable(name, (v, fail) => {
    const value = parseStrings && typeof v === 'string' ? parseJson(v, fail) : v;
    return isPlainObject(value) ? value : fail();
  });

/**
 * A JSON array. `parseStrings` reads JSON array text (query strings, JSON
 * columns returned as text); `wrapSingle` turns any other single value into
 * a one-element array, as a filter given one value means a list of one. Text
 * that starts with `[` but is not a JSON array is refused rather than wrapped:
 * it is a malformed list, not a single value.
 */
export const toArray = (name: string, parseStrings: boolean, wrapSingle: boolean) =>
  nullable(name, (v, fail) => {
    if (Array.isArray(v)) return v;
    if (parseStrings && typeof v === 'string' && v.trim().startsWith('[')) {
      const parsed = parseJson(v, fail);
      return Array.isArray(parsed) ? parsed : fail();
    }
    return wrapSingle ? [v] : fail();
  });
