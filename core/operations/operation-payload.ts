import type { LocalIds } from './local-ids.ts';

type Json = Record<string, unknown>;

/**
 * An operation's resource object as the write engine takes it: its own
 * `lid` gone (the engine knows records by id), and every resource
 * identifier that names a record by `lid` naming it by the id its `add`
 * gave it. Copies: the client's document is never changed, and copies of
 * its objects are plain data properties, whatever the member names.
 */
export function resourceObjectWithIds(data: Json, lids: LocalIds): Json {
  const { lid: _lid, ...rest } = data;
  if (!isObject(rest.relationships)) return rest;
  const relationships = Object.fromEntries(
    Object.entries(rest.relationships).map(([name, relationship]) => [
      name,
      isObject(relationship) && 'data' in relationship ? { ...relationship, data: linkageWithIds(relationship.data, lids) } : relationship,
    ]),
  );
  return { ...rest, relationships };
}

/** A relationship's linkage (one identifier, null, or a list), lids replaced by ids. */
export function linkageWithIds(linkage: unknown, lids: LocalIds): unknown {
  return Array.isArray(linkage) ? linkage.map((identifier) => identifierWithId(identifier, lids)) : identifierWithId(linkage, lids);
}

function identifierWithId(identifier: unknown, lids: LocalIds): unknown {
  if (!isObject(identifier) || typeof identifier.lid !== 'string') return identifier;
  const { lid, ...rest } = identifier;
  return { ...rest, id: lids.resolve(lid as string) };
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
