import { muralConfig } from '../config.ts';
import { copyPlain, dictionary } from '../dictionary.ts';
import { InvalidQueryError } from '../errors/index.ts';
import type { QueryParams } from '../query-params.ts';

type Node = Record<string, unknown>;

/**
 * Parses a URL query string into nested QueryParams: `filter[age][gte]=30`
 * becomes `{ filter: { age: { gte: '30' } } }`. Done here rather than by a web
 * framework so every transport (HTTP, CLI) reads queries identically.
 *
 * Every object it builds has no prototype, so client keys such as
 * `__proto__` or `constructor` are plain data: later stages report them as
 * unknown names. The number of parameters, the bracket depth and NUL
 * characters are refused with a 400 before anything else reads the query.
 */
export function parseQueryString(query: string): QueryParams {
  if (query.length > MAX_REMEMBERED_LENGTH) return parse(query);
  const { maxQueryParameters, maxQueryDepth } = muralConfig;
  const hit = remembered.get(query);
  if (hit && hit.maxQueryParameters === maxQueryParameters && hit.maxQueryDepth === maxQueryDepth) return copyPlain(hit.params) as QueryParams;
  const params = parse(query);
  if (!hit && remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
  remembered.set(query, { params: copyPlain(params) as QueryParams, maxQueryParameters, maxQueryDepth });
  return params;
}

/**
 * Queries parsed lately, the oldest making room: most requests repeat a
 * query another sent, and copying its parse touches less than parsing it
 * again. Each caller gets a copy of its own; a query that fails to parse is
 * not kept, and neither is a long one.
 */
const MAX_REMEMBERED = 256;
const MAX_REMEMBERED_LENGTH = 2048;
const remembered = new Map<string, { params: QueryParams; maxQueryParameters: number; maxQueryDepth: number }>();

function parse(query: string): QueryParams {
  const result: Node = dictionary();
  const text = query.startsWith('?') ? query.slice(1) : query;
  if (text.includes('%')) checkPercentEncoding(text);
  const search = new URLSearchParams(text);
  let count = 0;
  for (const [key, value] of search) {
    if (++count > muralConfig.maxQueryParameters) {
      throw new InvalidQueryError('too_many_parameters', `A query may have at most ${muralConfig.maxQueryParameters} parameters`, {
        parameter: key,
      });
    }
    const path = splitKey(key);
    if (!path) continue;
    checkParameter(key, value, path);
    assign(result, path, value);
  }
  return result as QueryParams;
}

/**
 * URLSearchParams turns escapes that are not UTF-8 (`%FF`, `%E0%A4`) into
 * U+FFFD, so a filter would quietly match something the client never sent:
 * a 400 naming the parameter instead, as a path so encoded is. A `%` not
 * followed by two hex digits stays a literal `%`, as the URL standard reads it.
 */
function checkPercentEncoding(text: string): void {
  for (const pair of text.split('&')) {
    try {
      decodeURIComponent(pair.replaceAll('+', ' ').replace(LONE_PERCENT, '%25'));
    } catch {
      const key = pair.split('=', 1)[0]!;
      throw new InvalidQueryError('invalid_encoding', 'The query string is not valid percent-encoded UTF-8', { parameter: lenientlyDecoded(key) });
    }
  }
}

const LONE_PERCENT = /%(?![0-9a-f]{2})/gi;

function lenientlyDecoded(key: string): string {
  return new URLSearchParams(`${key}=`).keys().next().value ?? key;
}

function checkParameter(key: string, value: string, path: string[]): void {
  if (path.length - 1 > muralConfig.maxQueryDepth) {
    throw new InvalidQueryError('parameter_too_deep', `${key} nests ${path.length - 1} brackets; at most ${muralConfig.maxQueryDepth} are allowed`, {
      parameter: key,
    });
  }
  // NUL ends strings in C drivers and PostgreSQL refuses it in text: no value or name may carry one
  if (key.includes('\0') || value.includes('\0')) {
    throw new InvalidQueryError('invalid_character', `${key.replaceAll('\0', '\\0')} contains a NUL character`, { parameter: key.replaceAll('\0', '\\0') });
  }
}

function splitKey(key: string): string[] | undefined {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) return undefined;
  const [, head, brackets] = match;
  const rest = [...brackets!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!);
  return [head!, ...rest];
}

function assign(target: Node, path: string[], value: string): void {
  let node = target;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!;
    if (path[i + 1] === '' && i + 1 === path.length - 1) {
      // `key[]=a&key[]=b` collects an explicit array
      const existing = node[key];
      node[key] = Array.isArray(existing) ? [...existing, value] : [value];
      return;
    }
    const child = node[key];
    if (typeof child === 'string') node[key] = assignEq(dictionary(), child);
    else if (typeof child !== 'object' || child === null || Array.isArray(child)) node[key] = dictionary();
    node = node[key] as Node;
  }
  const last = path[path.length - 1]!;
  const existing = node[last];
  if (typeof existing === 'object' && existing !== null && !Array.isArray(existing)) assignEq(existing as Node, value);
  else node[last] = value;
}

/** `filter[age]=30` beside `filter[age][lt]=50`: the bare value is the `eq` operator. */
function assignEq(node: Node, value: string): Node {
  node.eq = value;
  return node;
}
