import type { JsonApiDocument } from './document.ts';
import type { ResourceObject } from './record-serializer.ts';

/**
 * What `toJson()` returns: the records as plain objects, with their attributes and included
 * relationships nested, and `meta`.
 */
export interface SimpleJsonDocument {
  data: Record<string, unknown> | Array<Record<string, unknown>> | null;
  meta?: Record<string, unknown>;
}

/**
 * The flat JSON rendering: each record as `{ id, ...attributes }` with its
 * included relationships nested by name, for clients that do not speak JSON:API.
 */
export function toSimpleJson(document: JsonApiDocument): SimpleJsonDocument {
  const index = new Map<string, ResourceObject>();
  for (const object of [...asList(document.data), ...(document.included ?? [])]) index.set(`${object.type}:${object.id}`, object);
  const flatten = (object: ResourceObject, seen: Set<string>): Record<string, unknown> => {
    const key = `${object.type}:${object.id}`;
    const result: Record<string, unknown> = { id: object.id, ...object.attributes };
    const nextSeen = new Set(seen).add(key);
    for (const [name, relationship] of Object.entries(object.relationships ?? {})) {
      const linkage = (relationship as { data?: unknown }).data;
      if (linkage === undefined) continue;
      const resolve = (id: { type: string; id: string }) => {
        const target = index.get(`${id.type}:${id.id}`);
        return target && !nextSeen.has(`${id.type}:${id.id}`) ? flatten(target, nextSeen) : { id: id.id, type: id.type };
      };
      result[name] = Array.isArray(linkage) ? linkage.map(resolve) : linkage === null ? null : resolve(linkage as { type: string; id: string });
    }
    return result;
  };
  const data = Array.isArray(document.data)
    ? document.data.map((o) => flatten(o, new Set()))
    : document.data
      ? flatten(document.data, new Set())
      : null;
  return Object.keys(document.meta).length > 0 ? { data, meta: document.meta } : { data };
}

function asList(data: JsonApiDocument['data']): ResourceObject[] {
  if (!data) return [];
  return Array.isArray(data) ? data : [data];
}
