import { nullable } from './nullable.ts';

/** Primitives become their String() form; objects and arrays are not strings. */
export const toText = (name: string) =>
  nullable(name, (v, fail) => {
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
    return fail();
  });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Case is kept as given because uuid filters compare case-sensitively. */
export const toUuid = (name: string) =>
  nullable(name, (v, fail) => {
    if (typeof v !== 'string') return fail();
    const text = v.trim();
    return UUID.test(text) ? text : fail();
  });
