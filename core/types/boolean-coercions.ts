import { nullable } from './nullable.ts';

const STRICT: Record<string, boolean> = { true: true, false: false, 1: true, 0: false };
/** MySQL and SQLite store booleans as 1/0; PostgreSQL's text form is t/f. */
const STORED: Record<string, boolean> = { ...STRICT, t: true, f: false };

function booleans(name: string, words: Record<string, boolean>) {
  return nullable(name, (v, fail) => {
    if (typeof v === 'boolean') return v;
    if (v === 1 || v === 0 || v === 1n || v === 0n) return v === 1 || v === 1n;
    if (typeof v !== 'string') return fail();
    const key = v.trim().toLowerCase();
    return Object.hasOwn(words, key) ? words[key] : fail();
  });
}

/** Query strings and bodies: true, false, 1, 0 (case-insensitive); nothing else. */
export const toBoolean = (name: string) => booleans(name, STRICT);

/** Database values: also the t/f spellings drivers return. */
export const readBoolean = (name: string) => booleans(name, STORED);
