/**
 * One entry of an `Accept` header, or a `Content-Type`: `type/subtype` with
 * its media type parameters (names lowercased, values unquoted) and, in
 * `Accept`, its weight. Accept-extensions after `q` are not media type
 * parameters (RFC 9110 §12.5.1) and are dropped.
 */
export interface MediaRange {
  type: string;
  subtype: string;
  parameters: ReadonlyMap<string, string>;
  weight: number;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The media ranges of an `Accept` header, in order. Entries that are not
 * `type/subtype` or carry a malformed parameter or weight are skipped, as if
 * absent. The header's length is bounded by Node's header size limit, and
 * parsing is one pass over it.
 */
export function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const entry of splitOutsideQuotes(header, ',')) {
    const range = parseMediaRange(entry);
    if (range) ranges.push(range);
  }
  return ranges;
}

/** One media type (a `Content-Type`), or undefined when it is malformed. */
export function parseMediaType(header: string): MediaRange | undefined {
  const entries = splitOutsideQuotes(header, ',');
  return entries.length === 1 ? parseMediaRange(entries[0]!) : undefined;
}

function parseMediaRange(entry: string): MediaRange | undefined {
  const [essence = '', ...parameterTexts] = splitOutsideQuotes(entry, ';');
  const [type, subtype, extra] = essence.toLowerCase().split('/');
  if (!type || !subtype || extra !== undefined || !TOKEN.test(type) || !TOKEN.test(subtype)) return undefined;
  const parameters = new Map<string, string>();
  let weight = 1;
  for (const text of parameterTexts) {
    const parameter = parseParameter(text);
    if (!parameter) return undefined;
    const [name, value] = parameter;
    if (name === 'q') {
      weight = parseWeight(value);
      if (Number.isNaN(weight)) return undefined;
      break;
    }
    parameters.set(name, value);
  }
  return { type, subtype, parameters, weight };
}

function parseParameter(text: string): [string, string] | undefined {
  const equals = text.indexOf('=');
  if (equals <= 0) return undefined;
  const name = text.slice(0, equals).trim().toLowerCase();
  const raw = text.slice(equals + 1).trim();
  if (!TOKEN.test(name)) return undefined;
  if (raw.startsWith('"')) {
    if (raw.length < 2 || !raw.endsWith('"')) return undefined;
    return [name, raw.slice(1, -1).replace(/\\(.)/g, '$1')];
  }
  return TOKEN.test(raw) ? [name, raw] : undefined;
}

/** `q=0.5`: 0 to 1 with at most three decimals; anything else is NaN. */
function parseWeight(value: string): number {
  return /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(value) ? Number(value) : Number.NaN;
}

/** Splits on a separator that is not inside a quoted string, trimming each part and dropping empty ones. */
function splitOutsideQuotes(text: string, separator: ',' | ';'): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted && char === '\\') i++;
    else if (char === '"') quoted = !quoted;
    else if (!quoted && char === separator) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((part) => part.trim()).filter((part) => part !== '');
}
