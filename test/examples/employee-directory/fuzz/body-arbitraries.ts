import fc from 'fast-check';
import type { FuzzRequest } from './fuzz-server.ts';
import { EXTREME_NUMBERS, hostileText, hugeText, PROTOTYPE_KEYS } from './noise.ts';
import { memberId } from './query-arbitraries.ts';
import type { ResourceVocabulary, Vocabulary } from './vocabulary.ts';
import { ADMIN } from '../../../support/example-auth.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export const pick = <T>(values: readonly T[]): fc.Arbitrary<T> => fc.constantFrom(...values);

/**
 * Objects are built with `Object.fromEntries` so a `__proto__` key is an own
 * member that JSON.stringify writes out, as a hostile client would send it.
 */
export const object = (entries: Array<[string, Json]>): Json => Object.fromEntries(entries) as Json;

/** Any JSON at all, prototype keys included: what goes where the payload expects something else. */
export const wrongJson: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<Json>(null, true, false, 0, -1, 1e308, -0, 2 ** 53 + 2, '', 'x', [], {}, [null], { data: null }) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json> },
  { weight: 1, arbitrary: fc.array(fc.tuple(pick(PROTOTYPE_KEYS), fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<Json>), { minLength: 1, maxLength: 3 }).map(object) },
);

/** Values each type accepts: these get past coercion and validation to the database. */
function validValue(type: string): fc.Arbitrary<Json> {
  const valid: Record<string, fc.Arbitrary<Json>> = {
    string: fc.oneof(fc.string({ minLength: 1, maxLength: 20 }), pick(['Ada', 'Grace', 'Engineer'])),
    integer: fc.integer({ min: -1000, max: 1000 }),
    integer_id: fc.integer({ min: 1, max: 40 }),
    big_decimal: pick(['70.03', '0', '123456.78']),
    boolean: fc.boolean(),
    string_enum: pick(['employees', 'teams', 'departments']),
    datetime: fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((d) => d.toISOString()),
  };
  return valid[type] ?? fc.string({ minLength: 1, maxLength: 10 });
}

/** A value for an attribute of `type`: valid ones get saved, the rest test coercion and validation. */
function attributeValue(type: string): fc.Arbitrary<Json> {
  const odd: Record<string, fc.Arbitrary<Json>> = {
    string: pick(['', ' ']),
    integer: fc.oneof(pick(EXTREME_NUMBERS), fc.double()),
    integer_id: fc.oneof(fc.integer({ min: 1, max: 40 }).map(String), pick(EXTREME_NUMBERS), fc.constant(0)),
    big_decimal: fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), pick(['1e400', '-5', '12345678901234567890.123'])),
    boolean: pick(['true', 'false', 1, 0, 'yes']),
    string_enum: pick(['EMPLOYEES', 'tasks', '__proto__']),
    datetime: pick(['2020-02-30', 'now', '+275760-09-13T00:00:00.001Z']),
  };
  return fc.oneof(
    { weight: 8, arbitrary: validValue(type) },
    { weight: 2, arbitrary: odd[type] ?? fc.string({ maxLength: 10 }) },
    { weight: 2, arbitrary: hostileText },
    { weight: 2, arbitrary: wrongJson },
    { weight: 1, arbitrary: fc.constantFrom(1_000, 100_000).chain((size) => hugeText(size)) },
  );
}

export function attributes(resource: ResourceVocabulary | undefined, vocabulary: Vocabulary): fc.Arbitrary<Json> {
  const real = resource?.attributes.filter((a) => a.name !== 'id') ?? [];
  const writable = real.filter((a) => a.writable === true);
  const known = real.length > 0 ? pick(real) : fc.constant({ name: 'name', type: 'string' });
  const entry = fc.oneof(
    { weight: 8, arbitrary: known.chain((a) => attributeValue(a.type).map((v): [string, Json] => [a.name, v])) },
    { weight: 1, arbitrary: fc.tuple(fc.oneof(pick(PROTOTYPE_KEYS), pick(vocabulary.names), pick(['id', 'type', 'temp-id'])), wrongJson) },
  );
  // every writable attribute with a valid value: the record gets written
  const complete = fc.tuple(...writable.map((a) => validValue(a.type).map((v): [string, Json] => [a.name, v])));
  return fc.oneof(
    { weight: 8, arbitrary: fc.tuple(complete, fc.array(entry, { maxLength: 1 })).map(([valid, odd]) => object([...valid, ...odd])) },
    { weight: 6, arbitrary: fc.array(entry, { maxLength: 5 }).map(object) },
    { weight: 1, arbitrary: wrongJson },
  );
}

/** The temp-ids of one request: a small pool, so duplicates and cycles come up often. */
const TEMP_IDS = ['t1', 't2', 't3', '__proto__', 'constructor'];

interface GraphNode {
  type: string;
  tempId?: Json;
  id?: Json;
  attributes: Json;
  relationships: Array<[string, Json]>;
}

/** A relationship's `data`: identifiers of existing rows, of included temp-ids, or junk. */
function linkage(toMany: boolean, types: string[], vocabulary: Vocabulary): fc.Arbitrary<Json> {
  const identifier: fc.Arbitrary<Json> = fc.oneof(
    { weight: 4, arbitrary: fc.record({ type: pick(types), 'temp-id': pick(TEMP_IDS), method: pick(['create', 'create', 'update']) }, { requiredKeys: ['type', 'temp-id'] }) as fc.Arbitrary<Json> },
    { weight: 3, arbitrary: fc.record({ type: pick(types), id: fc.integer({ min: 1, max: 40 }).map(String), method: pick(['update', 'destroy', 'disassociate', 'explode']) }, { requiredKeys: ['type', 'id'] }) as fc.Arbitrary<Json> },
    { weight: 1, arbitrary: fc.record({ type: fc.oneof(pick(vocabulary.types), pick(PROTOTYPE_KEYS), wrongJson), id: wrongJson, 'temp-id': wrongJson, method: wrongJson }, { requiredKeys: [] }) as fc.Arbitrary<Json> },
    { weight: 1, arbitrary: wrongJson },
  );
  const data = toMany ? fc.array(identifier, { maxLength: 4 }) : fc.oneof({ weight: 5, arbitrary: identifier }, { weight: 1, arbitrary: fc.constant(null) });
  return fc.oneof({ weight: 10, arbitrary: data.map((d) => object([['data', d]])) }, { weight: 1, arbitrary: wrongJson });
}

function graphNode(vocabulary: Vocabulary, type: fc.Arbitrary<string>, withTempId: boolean): fc.Arbitrary<GraphNode> {
  return type.chain((t) => {
    const resource = vocabulary.resources.find((r) => r.type === t);
    const relationship = resource && resource.relationships.length > 0
      ? fc.oneof(
        { weight: 6, arbitrary: pick(resource.relationships).chain((r) => linkage(r.toMany, r.types, vocabulary).map((l): [string, Json] => [r.name, l])) },
        { weight: 1, arbitrary: fc.tuple(fc.oneof(pick(PROTOTYPE_KEYS), pick(vocabulary.names)), linkage(true, vocabulary.types, vocabulary)) },
      )
      : fc.tuple(pick(PROTOTYPE_KEYS), linkage(false, vocabulary.types, vocabulary));
    return fc.record({
      type: fc.constant(t),
      tempId: withTempId ? fc.oneof({ weight: 8, arbitrary: pick(TEMP_IDS) }, { weight: 1, arbitrary: wrongJson }) : fc.constant(undefined),
      attributes: attributes(resource, vocabulary),
      relationships: fc.array(relationship, { maxLength: 3 }),
    });
  });
}

function render(node: GraphNode): Json {
  const entries: Array<[string, Json]> = [['type', node.type]];
  if (node.id !== undefined) entries.push(['id', node.id]);
  if (node.tempId !== undefined) entries.push(['temp-id', node.tempId]);
  entries.push(['attributes', node.attributes]);
  if (node.relationships.length > 0) entries.push(['relationships', object(node.relationships)]);
  return object(entries);
}

/** A chain of sideposted records `depth` long, following real relationships (employees → positions → department → teams → …). */
function deepChain(start: ResourceVocabulary, vocabulary: Vocabulary): fc.Arbitrary<{ relationships: Array<[string, Json]>; included: Json[] }> {
  return fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 2, max: 8 }) }, { weight: 1, arbitrary: fc.integer({ min: 9, max: 60 }) }).chain((depth) => fc.infiniteStream(fc.nat()).map((choices) => {
    const included: Json[] = [];
    const iterator = choices[Symbol.iterator]();
    const link = (from: ResourceVocabulary, level: number): Array<[string, Json]> => {
      const open = from.relationships.filter((x) => !x.guarded);
      if (level >= depth || open.length === 0) return [];
      const r = open[iterator.next().value! % open.length]!;
      const types = r.types.length > 1 ? r.types.filter((t) => t !== 'tasks') : r.types;
      const type = types[iterator.next().value! % types.length]!;
      const target = vocabulary.resources.find((x) => x.type === type)!;
      const tempId = `deep-${level}`;
      const identifier = object([['type', type], ['temp-id', tempId], ['method', 'create']]);
      const values = target.attributes.filter((a) => a.writable === true).map((a): [string, Json] => [a.name, plainValue(a.type, level)]);
      const node = object([['type', type], ['temp-id', tempId], ['attributes', object(values)], ['relationships', object(link(target, level + 1))]]);
      included.push(node);
      return [[r.name, object([['data', r.toMany ? [identifier] : identifier]])]];
    };
    return { relationships: link(start, 0), included };
  }));
}

/** A valid value of `type` for the `level`th record of a chain. */
function plainValue(type: string, level: number): Json {
  const values: Record<string, Json> = { integer: level, integer_id: 1, boolean: level % 2 === 0, string_enum: 'employees', big_decimal: '1.5', datetime: '2020-01-01T00:00:00.000Z' };
  return values[type] ?? `level ${level}`;
}

/** A POST or PATCH document for `resource`: sideposted graphs with temp-ids, cycles, duplicates, depth, junk. */
function writeDocument(resource: ResourceVocabulary, vocabulary: Vocabulary, id: string | undefined): fc.Arbitrary<string> {
  const type = fc.oneof({ weight: 24, arbitrary: fc.constant(resource.type) }, { weight: 1, arbitrary: pick(vocabulary.types) }, { weight: 1, arbitrary: pick(PROTOTYPE_KEYS) });
  const includedType = pick(vocabulary.types);
  const primaryId: fc.Arbitrary<Json | undefined> = id === undefined
    ? fc.oneof({ weight: 10, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: wrongJson })
    : fc.oneof({ weight: 20, arbitrary: fc.constant(decodeURIComponentSafe(id)) }, { weight: 1, arbitrary: wrongJson }, { weight: 1, arbitrary: fc.constant(undefined) });
  const graph = fc.record({
    data: graphNode(vocabulary, type, false),
    id: primaryId,
    included: fc.array(graphNode(vocabulary, includedType, true), { maxLength: 6 }),
    deep: fc.option(deepChain(resource, vocabulary), { freq: 6 }),
  }).map(({ data, id: dataId, included, deep }) => {
    const primary: GraphNode = { ...data, id: dataId, relationships: deep ? deep.relationships : data.relationships };
    return object([['data', render(primary)], ['included', [...(deep?.included ?? []), ...included.map(render)]]]);
  });
  return fc.oneof(
    { weight: 20, arbitrary: graph.map((doc) => JSON.stringify(doc)) },
    { weight: 2, arbitrary: wrongJson.map((doc) => JSON.stringify(doc)) },
    { weight: 1, arbitrary: fc.constantFrom('', '{', '{"data":', 'null', '[]', '{"data":{"type":"employees"', '\u0000', '{"__proto__":{"eq":1},"data":{"type":"x"}}') },
    { weight: 1, arbitrary: fc.constantFrom(900_000, 1_100_000).map((n) => JSON.stringify({ data: { type: resource.type, attributes: { [resource.attributes[1]?.name ?? 'name']: 'x'.repeat(n) } } })) },
  );
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const contentTypes = fc.oneof(
  { weight: 12, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.constant({ 'content-type': 'application/json' }) },
  { weight: 1, arbitrary: fc.constantFrom({ 'content-type': 'text/plain' }, { 'content-type': 'application/vnd.api+json; ext=x' }, { 'content-type': 'application/x-www-form-urlencoded' }) },
).map((headers) => headers as Record<string, string> | undefined);

/** POST, PATCH and DELETE on every Resource that allows them. */
export function writeRequest(vocabulary: Vocabulary): fc.Arbitrary<FuzzRequest> {
  return pick(vocabulary.resources).chain((resource) => {
    const admin = fc.option(fc.constant({ ...ADMIN }), { nil: undefined, freq: 2 });
    const post = fc.tuple(writeDocument(resource, vocabulary, undefined), contentTypes, admin)
      .map(([body, type, role]): FuzzRequest => ({ method: 'POST', path: resource.path, body, headers: { ...type, ...role } }));
    const patch = memberId.chain((id) => fc.tuple(writeDocument(resource, vocabulary, id), contentTypes, admin)
      .map(([body, type, role]): FuzzRequest => ({ method: 'PATCH', path: `${resource.path}/${id}`, body, headers: { ...type, ...role } })));
    const destroy = fc.tuple(memberId, fc.option(writeDocument(resource, vocabulary, undefined), { freq: 4, nil: undefined }))
      .map(([id, body]): FuzzRequest => ({ method: 'DELETE', path: `${resource.path}/${id}`, body }));
    return fc.oneof({ weight: 5, arbitrary: post }, { weight: 4, arbitrary: patch }, { weight: 1, arbitrary: destroy });
  });
}
