import fc from 'fast-check';
import { object, pick, wrongJson, type Json } from './body-arbitraries.ts';
import type { FuzzRequest } from './fuzz-server.ts';
import { PROTOTYPE_KEYS } from './noise.ts';
import { memberId, queryString } from './query-arbitraries.ts';
import type { ResourceVocabulary, Vocabulary } from './vocabulary.ts';
import { ADMIN } from '../../../support/example-auth.ts';

export { ADMIN };

/** Names no Resource declares; `notez` is as long as `notes`, so a hidden relationship's answer can be compared byte for byte. */
export const UNKNOWN_NAMES = ['notez', 'bosses', 'employee_ids', 'relationships', 'Positions', ''];

type Relationship = ResourceVocabulary['relationships'][number];

/** A relationship name for `resource`: its own mostly, then another Resource's, unknown names and prototype keys. */
function relationshipName(resource: ResourceVocabulary, vocabulary: Vocabulary): fc.Arbitrary<string> {
  const own = resource.relationships.map((r) => r.name);
  const others = vocabulary.resources.flatMap((r) => r.relationships.map((x) => x.name)).filter((name) => !own.includes(name));
  return fc.oneof(
    ...(own.length > 0 ? [{ weight: 12, arbitrary: pick(own) }] : []),
    ...(others.length > 0 ? [{ weight: 2, arbitrary: pick(others) }] : []),
    { weight: 2, arbitrary: pick(UNKNOWN_NAMES) },
    { weight: 1, arbitrary: pick(PROTOTYPE_KEYS) },
    { weight: 1, arbitrary: pick(['%FF', '%00', 'notes%2F1', 'notes.notable', encodeURIComponent('notes ')]) },
  );
}

/** A resource identifier for a relationship of `types`: real rows mostly, then every way of getting one wrong. */
function identifier(types: string[], vocabulary: Vocabulary): fc.Arbitrary<Json> {
  const id = fc.oneof(
    { weight: 8, arbitrary: fc.integer({ min: 1, max: 40 }).map(String) },
    { weight: 1, arbitrary: fc.constantFrom<Json>(99999, '99999', '0', '-1', '1.5', '9007199254740993', 'x', '', 7) },
    { weight: 1, arbitrary: wrongJson },
  );
  const valid = fc.tuple(pick(types.length > 0 ? types : vocabulary.types), id).map(([type, value]) => object([['type', type], ['id', value]]));
  return fc.oneof(
    { weight: 10, arbitrary: valid },
    { weight: 1, arbitrary: fc.tuple(pick(vocabulary.types), id).map(([type, value]) => object([['type', type], ['id', value]])) },
    { weight: 1, arbitrary: valid.map((i) => object([...Object.entries(i as Record<string, Json>), ['meta', object([['version', '0']])]])) },
    { weight: 1, arbitrary: fc.tuple(pick(types.length > 0 ? types : vocabulary.types), pick(['a', '__proto__'])).map(([type, lid]) => object([['type', type], ['lid', lid]])) },
    { weight: 1, arbitrary: fc.tuple(pick(types.length > 0 ? types : vocabulary.types), pick(['create', 'destroy', 'disassociate', 'x'])).map(([type, method]) => object([['type', type], ['id', '1'], ['method', method]])) },
    { weight: 1, arbitrary: wrongJson },
  );
}

/** `{"data": …}` for a relationship write: the shape the relationship takes mostly, the other shape, null, duplicates, junk. */
function linkageBody(relationship: Relationship | undefined, vocabulary: Vocabulary): fc.Arbitrary<string> {
  const types = relationship?.types ?? vocabulary.types;
  const one = identifier(types, vocabulary);
  const many = fc.array(one, { maxLength: 4 });
  const expected = relationship === undefined || relationship.toMany ? many : fc.oneof({ weight: 4, arbitrary: one }, { weight: 1, arbitrary: fc.constant(null) });
  const duplicated = one.map((i) => [i, i]);
  const data = fc.oneof(
    { weight: 12, arbitrary: expected },
    { weight: 2, arbitrary: relationship?.toMany ? fc.oneof(one, fc.constant(null)) : many },
    { weight: 1, arbitrary: duplicated },
    { weight: 1, arbitrary: wrongJson },
  );
  const document = fc.tuple(data, fc.option(wrongJson, { freq: 8, nil: undefined })).map(([value, meta]) => object([['data', value], ...(meta === undefined ? [] : [['meta', meta] as [string, Json]])]));
  return fc.oneof(
    { weight: 20, arbitrary: document.map((doc) => JSON.stringify(doc)) },
    { weight: 1, arbitrary: wrongJson.map((doc) => JSON.stringify(doc)) },
    { weight: 1, arbitrary: fc.constantFrom('', '{', '{"data":', '{"data":[', 'null', '[]', '{"__proto__":{"data":[]},"data":[]}', '{"data":[{"type":"positions","id":"1"}],"data":null}') },
  );
}

/**
 * `GET|POST|PATCH|DELETE {ns}/{type}/{id}/relationships/{name}` and `GET
 * {ns}/{type}/{id}/{name}` on every Resource, as a guest or an admin: real
 * relationships with valid and invalid linkage, hidden ones (a guest's
 * `employees.notes`), unknown names and junk, ids of seeded rows and
 * nonsense, and the related Resource's query parameters on the reads.
 */
export function relationshipRequest(vocabulary: Vocabulary): fc.Arbitrary<FuzzRequest> {
  const role = fc.option(fc.constant(ADMIN), { nil: undefined, freq: 3 });
  return pick(vocabulary.resources).chain((resource) => relationshipName(resource, vocabulary).chain((name) => {
    const relationship = resource.relationships.find((r) => r.name === name);
    const target = vocabulary.resources.find((r) => relationship?.types.includes(r.type)) ?? resource;
    const base = memberId.map((id) => `${resource.path}/${id}`);
    const read = fc.tuple(base, fc.boolean(), fc.option(queryString(target, vocabulary), { freq: 3, nil: undefined }), role)
      .map(([path, linkage, query, headers]): FuzzRequest => ({
        method: 'GET', path: `${path}/${linkage ? 'relationships/' : ''}${name}${query ? `?${query}` : ''}`, headers,
      }));
    const write = fc.tuple(base, pick(['POST', 'PATCH', 'DELETE'] as const), linkageBody(relationship, vocabulary), role)
      .map(([path, method, body, headers]): FuzzRequest => ({ method, path: `${path}/relationships/${name}`, body, headers }));
    return fc.oneof({ weight: 2, arbitrary: read }, { weight: 3, arbitrary: write });
  }));
}

/** The relationship name a request's path names, when it is a relationship endpoint's. */
export function relationshipOf(path: string): string | undefined {
  const match = /^\/api\/v1\/[^/?]+\/[^/?]+\/(?:relationships\/)?([^/?]*)(?:\?|$)/.exec(path);
  return match?.[1];
}
