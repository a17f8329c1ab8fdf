import fc from 'fast-check';
import { attributes, object, pick, wrongJson, type Json } from './body-arbitraries.ts';
import type { FuzzRequest } from './fuzz-server.ts';
import { PROTOTYPE_KEYS } from './noise.ts';
import type { ResourceVocabulary, Vocabulary } from './vocabulary.ts';
import { ADMIN } from '../../../support/example-auth.ts';

export const ATOMIC_CONTENT_TYPE = 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"';
/** Marks the departments every generated request adds first and last: both saved, or neither. */
export const SENTINEL = 'fuzz-sentinel-';

/** The lids of one request: a small pool, so duplicates, unknown ones and type mismatches come up often. */
const LIDS = ['a', 'b', 'c', '__proto__', 'constructor'];

/**
 * Departments are the sentinels' type: no generated operation names one by
 * id, so none can rename or remove another request's sentinel.
 */
const byId = (vocabulary: Vocabulary) => vocabulary.resources.filter((r) => r.type !== 'departments' && r.actions.length > 0);

/** A record an operation names: by a lid of the pool, an id of a seeded row, or junk. */
function identity(): fc.Arbitrary<Array<[string, Json]>> {
  return fc.oneof(
    { weight: 4, arbitrary: pick(LIDS).map((lid): Array<[string, Json]> => [['lid', lid]]) },
    { weight: 4, arbitrary: fc.integer({ min: 1, max: 40 }).map((id): Array<[string, Json]> => [['id', String(id)]]) },
    { weight: 1, arbitrary: fc.tuple(wrongJson, wrongJson).map(([id, lid]): Array<[string, Json]> => [['id', id], ['lid', lid]]) },
    { weight: 1, arbitrary: fc.constant<Array<[string, Json]>>([]) },
  );
}

function identifier(types: string[], vocabulary: Vocabulary): fc.Arbitrary<Json> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.tuple(pick(types), identity()).map(([type, id]) => object([['type', type], ...id])) },
    { weight: 1, arbitrary: fc.tuple(fc.oneof(pick(vocabulary.types), pick(PROTOTYPE_KEYS)), identity()).map(([type, id]) => object([['type', type], ...id])) },
    { weight: 1, arbitrary: wrongJson },
  );
}

function linkage(relationship: ResourceVocabulary['relationships'][number], vocabulary: Vocabulary): fc.Arbitrary<Json> {
  const one = identifier(relationship.types, vocabulary);
  return relationship.toMany ? fc.array(one, { maxLength: 3 }) : fc.oneof({ weight: 4, arbitrary: one }, { weight: 1, arbitrary: fc.constant(null) });
}

/** A resource object for add or update: real attributes, relationships whose linkage names lids of the pool. */
function resourceObject(resource: ResourceVocabulary, vocabulary: Vocabulary, own: fc.Arbitrary<Array<[string, Json]>>): fc.Arbitrary<Json> {
  const relationship = resource.relationships.length > 0
    ? pick(resource.relationships).chain((r) => linkage(r, vocabulary).map((data): [string, Json] => [r.name, object([['data', data]])]))
    : fc.tuple(pick(PROTOTYPE_KEYS), wrongJson);
  return fc.record({ own, attributes: attributes(resource, vocabulary), relationships: fc.array(relationship, { maxLength: 2 }) })
    .map(({ own: id, attributes: values, relationships }) => object([
      ['type', resource.type], ...id, ['attributes', values], ...(relationships.length > 0 ? [['relationships', object(relationships)] as [string, Json]] : []),
    ]));
}

/**
 * A relationship an operation's ref names: one of the Resource's mostly; now
 * and then one it hides from a guest (`notes`), another Resource's, a name
 * no one declares or a prototype key, each with linkage of some real type.
 */
function relationshipOf(resource: ResourceVocabulary, vocabulary: Vocabulary): fc.Arbitrary<ResourceVocabulary['relationships'][number]> {
  const foreign = fc.tuple(pick([...OTHER_NAMES, ...PROTOTYPE_KEYS]), pick(vocabulary.types), fc.boolean())
    .map(([name, type, toMany]) => ({ name, types: [type], toMany, guarded: false }));
  return fc.oneof({ weight: 8, arbitrary: pick(resource.relationships) }, { weight: 2, arbitrary: foreign });
}

/** Relationship names that are not the named Resource's own, or not anyone's. */
const OTHER_NAMES = ['notes', 'notez', 'positions', 'employee', 'milestones', 'relationships', ''];

function operation(vocabulary: Vocabulary): fc.Arbitrary<Json> {
  const creatable = vocabulary.resources.filter((r) => r.actions.includes('create'));
  const named = byId(vocabulary);
  const withRelationships = named.filter((r) => r.relationships.length > 0);
  const add = pick(creatable).chain((r) => resourceObject(r, vocabulary, fc.option(pick(LIDS), { freq: 2, nil: undefined }).map((lid): Array<[string, Json]> => (lid ? [['lid', lid]] : []))))
    .map((data) => object([['op', 'add'], ['data', data]]));
  const update = pick(named).chain((r) => fc.tuple(fc.tuple(fc.constant(r.type), identity()), resourceObject(r, vocabulary, fc.constant([])), fc.boolean()))
    .map(([[type, id], data, inData]) => (inData
      ? object([['op', 'update'], ['data', object([...Object.entries(data as Record<string, Json>), ...id])]])
      : object([['op', 'update'], ['ref', object([['type', type], ...id])], ['data', data]])));
  const remove = fc.tuple(pick(named.map((r) => r.type)), identity()).map(([type, id]) => object([['op', 'remove'], ['ref', object([['type', type], ...id])]]));
  const members = pick(withRelationships).chain((r) => fc.tuple(fc.constant(r.type), identity(), relationshipOf(r, vocabulary), pick(['add', 'update', 'remove'])))
    .chain(([type, id, relationship, op]) => linkage({ ...relationship, toMany: relationship.toMany || op === 'update' ? relationship.toMany : true }, vocabulary)
      .map((data) => object([['op', op], ['ref', object([['type', type], ...id, ['relationship', relationship.name]])], ['data', data]])));
  const junk = fc.oneof(
    wrongJson,
    fc.record({ op: fc.oneof(pick(['add', 'update', 'remove', 'create', '__proto__']), wrongJson), ref: wrongJson, href: fc.constant('/api/v1/employees/1'), data: wrongJson }, { requiredKeys: ['op'] }) as fc.Arbitrary<Json>,
  );
  return fc.oneof({ weight: 6, arbitrary: add }, { weight: 3, arbitrary: update }, { weight: 2, arbitrary: remove }, { weight: 4, arbitrary: members }, { weight: 1, arbitrary: junk });
}

/** A valid value of `type` for the `step`th operation; now and then an empty string, which names refuse (422). */
function plainValue(type: string, step: number, roll: number): Json {
  const values: Record<string, Json> = { integer: step, integer_id: 1 + (roll % 40), boolean: roll % 2 === 0, string_enum: 'employees', big_decimal: '1.5', datetime: '2020-01-01T00:00:00.000Z' };
  return values[type] ?? (roll % 23 === 0 ? '' : `op ${step}`);
}

/**
 * Operations that mostly make sense together: adds declaring lids, later
 * operations naming them with their types (in refs and in linkage), members
 * linked by lid or by the id of a seeded row, records removed after being
 * added. These reach the write engines, where the chaotic ones stop at 400.
 */
function coherentOperations(vocabulary: Vocabulary): fc.Arbitrary<Json[]> {
  const creatable = vocabulary.resources.filter((r) => r.actions.includes('create'));
  const named = byId(vocabulary);
  return fc.tuple(fc.integer({ min: 1, max: 6 }), fc.infiniteStream(fc.nat())).map(([count, stream]) => {
    const choices = stream[Symbol.iterator]();
    const next = () => choices.next().value!;
    const choose = <T>(list: readonly T[]): T => list[next() % list.length]!;
    const declared: Array<{ lid: string; resource: ResourceVocabulary }> = [];
    const target = (types: string[]): Json => {
      const local = declared.filter((d) => types.includes(d.resource.type));
      return local.length > 0 && next() % 3 !== 0 ? object([['type', choose(local).resource.type], ['lid', choose(local).lid]]) : object([['type', choose(types)], ['id', String(1 + (next() % 40))]]);
    };
    const fields = (resource: ResourceVocabulary, step: number, all: boolean) => object(resource.attributes
      .filter((a) => a.writable === true && a.name !== 'id' && (all || next() % 3 === 0))
      .map((a): [string, Json] => [a.name, plainValue(a.type, step, next())]));
    const operations: Json[] = [];
    for (let step = 0; step < count; step++) {
      const kind = next() % 10;
      const mine = declared.length > 0 ? choose(declared) : undefined;
      if (kind < 4 || !mine) {
        const resource = choose(creatable);
        const links = resource.relationships.filter((r) => !r.guarded && next() % 2 === 0)
          .map((r): [string, Json] => [r.name, object([['data', r.toMany ? [target(r.types)] : target(r.types)]])]);
        const lid = `l${step}`;
        operations.push(object([['op', 'add'], ['data', object([['type', resource.type], ['lid', lid], ['attributes', fields(resource, step, true)], ['relationships', object(links)]])]]));
        declared.push({ lid, resource });
      } else if (kind < 6) {
        operations.push(object([['op', 'update'], ['ref', object([['type', mine.resource.type], ['lid', mine.lid]])], ['data', object([['type', mine.resource.type], ['attributes', fields(mine.resource, step, false)]])]]));
      } else if (kind < 8 && mine.resource.relationships.length > 0) {
        const relationship = choose(mine.resource.relationships);
        const op = relationship.toMany ? choose(['add', 'update', 'remove']) : 'update';
        const data = relationship.toMany ? [target(relationship.types), target(relationship.types)] : next() % 4 === 0 ? null : target(relationship.types);
        operations.push(object([['op', op], ['ref', object([['type', mine.resource.type], ['lid', mine.lid], ['relationship', relationship.name]])], ['data', data]]));
      } else if (kind === 8) {
        operations.push(object([['op', 'remove'], ['ref', object([['type', mine.resource.type], ['lid', mine.lid]])]]));
        declared.splice(declared.indexOf(mine), 1);
      } else {
        const resource = choose(named);
        const id = String(1 + (next() % 40));
        const ref = object([['type', resource.type], ['id', id]]);
        const roll = next() % 4;
        if (roll === 0) {
          // a hidden or unknown relationship after valid operations: all of it is undone
          const name = choose(['notes', 'notez', ...resource.relationships.map((r) => r.name)]);
          operations.push(object([['op', choose(['add', 'update', 'remove'])], ['ref', object([['type', resource.type], ['id', id], ['relationship', name]])], ['data', [target(['notes', ...vocabulary.types])]]]));
        } else {
          operations.push(roll === 1 ? object([['op', 'remove'], ['ref', ref]]) : object([['op', 'update'], ['ref', ref], ['data', object([['type', resource.type], ['attributes', fields(resource, step, false)]])]]));
        }
      }
    }
    return operations;
  });
}

/**
 * `POST /api/v1/operations`: generated operations between two sentinel
 * departments, lids duplicated, unknown or of the wrong type, members of
 * every relationship, junk at every level; sometimes past maxOperations, or
 * with another Content-Type.
 */
export function operationsRequest(vocabulary: Vocabulary): fc.Arbitrary<FuzzRequest> {
  const sentinel = (name: string) => object([['op', 'add'], ['data', object([['type', 'departments'], ['attributes', object([['name', name]])]])]]);
  const count = fc.oneof({ weight: 12, arbitrary: fc.integer({ min: 1, max: 8 }) }, { weight: 1, arbitrary: fc.integer({ min: 99, max: 120 }) });
  const chaotic = count.chain((n) => fc.array(operation(vocabulary), { minLength: n, maxLength: n }));
  const document = fc.tuple(fc.uuid(), fc.oneof({ weight: 3, arbitrary: coherentOperations(vocabulary) }, { weight: 1, arbitrary: chaotic }))
    .map(([uuid, operations]) => JSON.stringify(object([['atomic:operations', [sentinel(`${SENTINEL}${uuid}-first`), ...operations, sentinel(`${SENTINEL}${uuid}-last`)]]])));
  const body = fc.oneof(
    { weight: 20, arbitrary: document },
    { weight: 1, arbitrary: wrongJson.map((json) => JSON.stringify(json)) },
    { weight: 1, arbitrary: fc.constantFrom('', '{', '{"atomic:operations":[', '{"atomic:operations":[],"data":{}}', '{"__proto__":{"x":1},"atomic:operations":[{"op":"add"}]}') },
  );
  const contentType = fc.oneof({ weight: 12, arbitrary: fc.constant(ATOMIC_CONTENT_TYPE) }, { weight: 1, arbitrary: pick(['application/vnd.api+json', 'application/json', `${ATOMIC_CONTENT_TYPE}; charset=utf-8`]) });
  const admin = fc.option(fc.constant({ ...ADMIN }), { nil: undefined, freq: 2 });
  return fc.tuple(body, contentType, admin).map(([text, type, role]): FuzzRequest => ({
    method: 'POST', path: '/api/v1/operations', body: text, headers: { 'content-type': type, ...role },
  }));
}

let sends = 0;

/** The request with sentinel names no other send has: shrinking sends one request several times, at once and again. */
export function uniqueSentinels(request: FuzzRequest): FuzzRequest {
  if (request.body === undefined || !request.body.includes(SENTINEL)) return request;
  const send = ++sends;
  return { ...request, body: request.body.replace(/fuzz-sentinel-([0-9a-f-]{36})-(first|last)/g, (_, uuid: string, end: string) => `${SENTINEL}${uuid}-${send}-${end}`) };
}

/** The sentinel names of a generated request, when its body is a document that has them. */
export function sentinelsOf(request: FuzzRequest): string[] {
  let document: unknown;
  try {
    document = JSON.parse(request.body ?? '');
  } catch {
    return [];
  }
  const operations = (document as { 'atomic:operations'?: unknown })?.['atomic:operations'];
  if (!Array.isArray(operations)) return [];
  return [operations[0], operations.at(-1)]
    .map((op) => (op as { data?: { attributes?: { name?: unknown } } } | undefined)?.data?.attributes?.name)
    .filter((name): name is string => typeof name === 'string' && name.startsWith(SENTINEL));
}
