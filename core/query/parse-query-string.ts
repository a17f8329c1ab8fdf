import type { QueryParams } from './query-params.ts';

/**
 * Parses a URL query string into nested QueryParams: `filter[age][gte]=30`
 * becomes `{ filter: { age: { gte: '30' } } }`. Done here rather than by a web
 * framework so every transport (HTTP, CLI) reads queries identically.
 */
export function parseQueryString(query: string): QueryParams {
  const result: Record<string, unknown> = {};
  const search = new URLSearchParams(query.startsWith('?') ? query.slice(1) : query);
  for (const [key, value] of search) {
    const path = splitKey(key);
    if (path) assign(result, path, value);
  }
  return result as QueryParams;
}

function splitKey(key: string): string[] | undefined {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) return undefined;
  const [, head, brackets] = match;
  const rest = [...brackets!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!);
  return [head!, ...rest];
}

function assign(target: Record<string, unknown>, path: string[], value: string): void {
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
    if (typeof child === 'string') node[key] = { eq: child };
    else if (typeof child !== 'object' || child === null || Array.isArray(child)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  const last = path[path.length - 1]!;
  const existing = node[last];
  if (typeof existing === 'object' && existing !== null && !Array.isArray(existing)) {
    (existing as Record<string, unknown>).eq = value;
  } else {
    node[last] = value;
  }
}
