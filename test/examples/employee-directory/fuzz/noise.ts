import fc from 'fast-check';

/** Keys that reach `Object.prototype` or shadow its methods when an object is built from them. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf', '__defineGetter__', 'isPrototypeOf'];

/** Numbers at and beyond every limit: JavaScript's, the databases' integer widths, IEEE 754's. */
export const EXTREME_NUMBERS = [
  '0', '-0', '-1', '1.5', '-1.5', '+1', ' 1', '1 ', '01', '1e3', '1e309', '-1e309', '1e-400', 'NaN', 'Infinity', '-Infinity',
  '0x10', '0b1', '1_000', '2147483647', '2147483648', '-2147483649', '4294967296', '9007199254740991', '9007199254740993',
  '9223372036854775807', '9223372036854775808', '-9223372036854775809', '99999999999999999999999999999999999999', '1.7976931348623157e308',
  '0.1e-9999', '١٢٣',
];

/** Texts that trip parsers, collations and drivers. */
export const HOSTILE_TEXTS = [
  '', ' ', '\u0000', 'a\u0000b', '\u0000'.repeat(3), "' OR 1=1 --", '"; DROP TABLE employees; --', '%', '_', '%_%', '\\', '\\\\%', '`', '$1', '?',
  ':name', 'null', 'nil', 'undefined', 'true', 'false', 'TRUE', 'yes', '[]', '{}', '[object Object]', ',', ',,', 'a,,b', '.', '..', 'a.b.c',
  '-', '+', '--', '\t', '\r\n', '\u2028', '\uFEFF', 'é', 'e\u0301', 'ß', 'İ', '𝒜𝓁𝑒𝓍', '👩‍👩‍👧‍👦', 'שלום', '\u202Eevil', '\uD800', '\uDFFF',
  '2020-01-01', '2020-13-45', '0000-00-00', '9999-12-31T23:59:59.999Z', '2020-02-30T25:61:61Z', '1970-01-01T00:00:00+99:99',
];

/** Sequences written into the URL as they are: malformed percent-encoding and UTF-8. */
export const RAW_URL_NOISE = ['%', '%F', '%ZZ', '%FF', '%C0%AF', '%ED%A0%80', '%F4%90%80%80', '%00', '%25', '%%', '%E2%82', '%5B', '%5D', '+', '&', '=', ';', '[', ']', '[[', ']]', '%2E%2E%2F'];

/** A value of about `size` characters: long inputs must be refused or stored, never crash or stall. */
export const hugeText = (size = 100_000): fc.Arbitrary<string> =>
  fc.constantFrom('a', '\u0000', 'é', '%', '😀', '[').map((unit) => unit.repeat(Math.ceil(size / unit.length)));

/** Any hostile text, numbers included, plus arbitrary unicode (surrogate halves too). */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_TEXTS, ...EXTREME_NUMBERS, ...PROTOTYPE_KEYS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String) },
);

/**
 * encodeURIComponent, except that a lone surrogate (which it refuses) becomes
 * the invalid UTF-8 a client with a broken encoder would send.
 */
export function encodeComponent(text: string): string {
  if (!/[\uD800-\uDFFF]/.test(text)) return encodeURIComponent(text);
  let encoded = '';
  // for…of walks code points: a lone surrogate comes out alone
  for (const char of text) {
    const code = char.codePointAt(0)!;
    encoded += code >= 0xd800 && code <= 0xdfff ? '%ED%A0%80' : encodeURIComponent(char);
  }
  return encoded;
}
