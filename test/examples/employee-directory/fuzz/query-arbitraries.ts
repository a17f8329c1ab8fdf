import fc from 'fast-check';
import type { FuzzRequest } from './fuzz-server.ts';
import { encodeComponent, EXTREME_NUMBERS, hostileText, hugeText, PROTOTYPE_KEYS, RAW_URL_NOISE } from './noise.ts';
import type { ResourceVocabulary, Vocabulary } from './vocabulary.ts';
import { ADMIN } from '../../../support/example-auth.ts';

/** A query parameter as it goes on the wire: key and value already percent-encoded (or deliberately not). */
type Param = string;

const pick = <T>(values: readonly T[]): fc.Arbitrary<T> => fc.constantFrom(...values);

/** Mostly a real name, sometimes another Resource's, a prototype key or noise. */
function nameFrom(real: readonly string[], vocabulary: Vocabulary): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: real.length > 0 ? 8 : 0, arbitrary: real.length > 0 ? pick(real) : fc.constant('') },
    { weight: 1, arbitrary: pick(vocabulary.names) },
    { weight: 1, arbitrary: pick(PROTOTYPE_KEYS) },
    { weight: 1, arbitrary: hostileText },
  );
}

/** A value for a filter of `type`: well-formed ones reach the database, the rest test coercion. */
function valueFor(type: string, allow: readonly unknown[] | undefined): fc.Arbitrary<string> {
  const typed: Record<string, fc.Arbitrary<string>> = {
    integer: fc.oneof(fc.integer({ min: -5, max: 400 }).map(String), pick(EXTREME_NUMBERS)),
    integer_id: fc.oneof(fc.integer({ min: 1, max: 400 }).map(String), pick(EXTREME_NUMBERS), fc.constant('null')),
    big_decimal: fc.oneof(fc.double({ noNaN: true }).map(String), pick(['70.03', '1e2', '-0.001', '12345678901234567890.123456789']), pick(EXTREME_NUMBERS)),
    boolean: pick(['true', 'false', 't', 'f', '1', '0', 'TRUE', 'yes', 'no', 'null', '']),
    datetime: fc.oneof(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), pick(['2020-01-01', '2020-01-01T00:00:00+02:00', '2020-02-30', 'tomorrow'])),
    string: fc.oneof(fc.string({ maxLength: 8 }), pick(['Ada', 'Lovelace', 'Engineer'])),
    string_enum: pick([...(allow ?? []).map(String), 'EMPLOYEES', 'nobody']),
  };
  return fc.oneof(
    { weight: 6, arbitrary: typed[type] ?? fc.string({ maxLength: 8 }) },
    { weight: 2, arbitrary: fc.array(typed[type] ?? hostileText, { minLength: 2, maxLength: 4 }).map((vs) => vs.join(',')) },
    { weight: 3, arbitrary: hostileText },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_URL_NOISE).map((raw) => `\u0000RAW${raw}`) },
  );
}

/** `head[a][b]=value`, each part encoded; a value marked RAW goes on the wire unencoded. */
function param(head: string, parts: readonly string[], value: string): Param {
  const encode = (text: string) => (text.startsWith('\u0000RAW') ? text.slice(4) : encodeComponent(text));
  return `${encode(head)}${parts.map((p) => `[${encode(p)}]`).join('')}=${encode(value)}`;
}

function filterParam(resource: ResourceVocabulary, vocabulary: Vocabulary): fc.Arbitrary<Param> {
  const real = resource.filters.length > 0 ? pick(resource.filters) : fc.constant({ name: 'id', type: 'integer_id', operators: ['eq'], allow: undefined });
  const deep = resource.relationships.map((r) => r.name);
  return real.chain((filter) => {
    const operator = fc.oneof({ weight: 6, arbitrary: pick(filter.operators) }, { weight: 1, arbitrary: pick(vocabulary.operators) }, { weight: 1, arbitrary: nameFrom([], vocabulary) });
    const value = valueFor(filter.type, filter.allow);
    const name = fc.oneof({ weight: 8, arbitrary: fc.constant(filter.name) }, { weight: 2, arbitrary: nameFrom([], vocabulary) });
    return fc.oneof(
      fc.tuple(name, value).map(([n, v]) => param('filter', [n], v)),
      fc.tuple(name, operator, value).map(([n, o, v]) => param('filter', [n, o], v)),
      fc.tuple(name, operator, nameFrom([], vocabulary), value).map(([n, o, x, v]) => param('filter', [n, o, x], v)),
      fc.tuple(name, value).map(([n, v]) => param('filter', [n, ''], v)),
      fc.tuple(name, operator, value).map(([n, o, v]) => param('filter', [n, o, ''], v)),
      fc.tuple(nameFrom(deep, vocabulary), name, operator, value).map(([r, n, o, v]) => param('filter', [r, n, o], v)),
      fc.tuple(nameFrom(deep, vocabulary), name, value).map(([r, n, v]) => param('filter', [`${r}.${n}`], v)),
    );
  });
}

/** Dotted relationship paths walking the real graph, up to `depth` steps. */
function includePath(resource: ResourceVocabulary, vocabulary: Vocabulary, depth: number): fc.Arbitrary<string> {
  const step = (type: string, left: number): fc.Arbitrary<string[]> => {
    const here = vocabulary.resources.find((r) => r.type === type);
    if (!here || here.relationships.length === 0 || left === 0) return fc.constant([]);
    return pick(here.relationships).chain((r) =>
      fc.oneof(fc.constant<string[]>([r.name]), pick(r.types).chain((t) => step(t, left - 1).map((rest) => [r.name, ...rest]))),
    );
  };
  return fc.oneof(
    { weight: 6, arbitrary: step(resource.type, depth).map((p) => p.join('.')) },
    { weight: 1, arbitrary: fc.array(nameFrom([], vocabulary), { minLength: 1, maxLength: 12 }).map((p) => p.join('.')) },
  );
}

function includeParam(resource: ResourceVocabulary, vocabulary: Vocabulary): fc.Arbitrary<Param> {
  return fc.array(includePath(resource, vocabulary, 9), { minLength: 1, maxLength: 6 }).chain((paths) =>
    fc.oneof(fc.constant(param('include', [], paths.join(','))), fc.constant(paths.map((p) => param('include', [''], p)).join('&'))),
  );
}

function sortParam(resource: ResourceVocabulary, vocabulary: Vocabulary): fc.Arbitrary<Param> {
  const relationAttribute = fc.tuple(nameFrom(resource.relationships.map((r) => r.name), vocabulary), nameFrom(['title', 'name', 'id', 'age'], vocabulary)).map(([r, a]) => `${r}.${a}`);
  const entry = fc.tuple(pick(['', '-', '+', '--']), fc.oneof({ weight: 6, arbitrary: nameFrom(resource.sorts, vocabulary) }, { weight: 2, arbitrary: relationAttribute }));
  return fc.oneof(
    { weight: 6, arbitrary: fc.array(entry, { minLength: 1, maxLength: 4 }).map((es) => param('sort', [], es.map(([d, n]) => d + n).join(','))) },
    { weight: 1, arbitrary: fc.tuple(nameFrom(resource.sorts, vocabulary), pick(['asc', 'desc', 'x'])).map(([n, d]) => param('sort', [n], d)) },
    { weight: 1, arbitrary: entry.map(([d, n]) => param('sort', [''], d + n)) },
  );
}

function pageParam(resource: ResourceVocabulary, vocabulary: Vocabulary): fc.Arbitrary<Param> {
  const number = fc.oneof(fc.integer({ min: 0, max: 30 }).map(String), pick(EXTREME_NUMBERS), hostileText);
  const key = fc.oneof({ weight: 6, arbitrary: pick(['size', 'number']) }, { weight: 1, arbitrary: nameFrom([], vocabulary) });
  const related = nameFrom(resource.relationships.flatMap((r) => [r.name, ...r.types]), vocabulary);
  return fc.oneof(
    { weight: 4, arbitrary: fc.tuple(key, number).map(([k, v]) => param('page', [k], v)) },
    { weight: 2, arbitrary: fc.tuple(related, key, number).map(([r, k, v]) => param('page', [r, k], v)) },
    { weight: 1, arbitrary: number.map((v) => param('page', [], v)) },
  );
}

function fieldsParam(resource: ResourceVocabulary, vocabulary: Vocabulary): fc.Arbitrary<Param> {
  const type = nameFrom(vocabulary.types, vocabulary);
  const names = (real: string[]) => fc.array(nameFrom(real, vocabulary), { maxLength: 5 }).map((ns) => ns.join(','));
  return fc.oneof(
    fc.tuple(type, names([...resource.attributes.map((a) => a.name), ...resource.relationships.map((r) => r.name)])).map(([t, v]) => param('fields', [t], v)),
    fc.tuple(type, names(resource.extraAttributes.length > 0 ? resource.extraAttributes : ['vacation_days'])).map(([t, v]) => param('extra_fields', [t], v)),
    names(resource.attributes.map((a) => a.name)).map((v) => param('fields', [], v)),
  );
}

function statsParam(resource: ResourceVocabulary, vocabulary: Vocabulary): fc.Arbitrary<Param> {
  const stat = nameFrom(resource.stats.map((s) => s.name), vocabulary);
  const calculations = fc.array(nameFrom(vocabulary.calculations, vocabulary), { minLength: 1, maxLength: 4 }).map((cs) => cs.join(','));
  return fc.oneof(
    { weight: 4, arbitrary: fc.tuple(stat, calculations).map(([s, c]) => param('stats', [s], c)) },
    { weight: 1, arbitrary: fc.tuple(nameFrom(resource.relationships.map((r) => r.name), vocabulary), stat, calculations).map(([r, s, c]) => param('stats', [r, s], c)) },
    { weight: 1, arbitrary: calculations.map((c) => param('stats', [], c)) },
  );
}

/** Keys and values with broken brackets, repeated brackets, raw bytes and prototype keys. */
function noiseParam(vocabulary: Vocabulary): fc.Arbitrary<Param> {
  const family = pick(['filter', 'sort', 'page', 'include', 'fields', 'extra_fields', 'stats', 'data', ...PROTOTYPE_KEYS]);
  const segment = fc.oneof(nameFrom([], vocabulary), fc.constantFrom(...RAW_URL_NOISE).map((raw) => `\u0000RAW${raw}`));
  return fc.oneof(
    fc.tuple(family, fc.array(segment, { maxLength: 8 }), hostileText).map(([f, parts, v]) => param(f, parts, v)),
    fc.tuple(family, fc.constantFrom('[', ']', '[[a]]', '[a', 'a]', '[]]', '[][]', '[a][', '%5Ba%5D', '[__proto__][eq]'), hostileText).map(([f, b, v]) => `${f}${b}=${encodeComponent(v)}`),
    fc.array(fc.constantFrom(...RAW_URL_NOISE), { minLength: 1, maxLength: 6 }).map((raws) => raws.join('')),
    fc.constantFrom(...PROTOTYPE_KEYS).chain((p) => fc.constantFrom(`${p}=1`, `${p}[eq]=1`, `filter[${p}]=1`, `filter[age][${p}]=1`, `filter[${p}][${p}]=1`, `${p}[${p}][x]=1`)),
  );
}

/** 100 kB values in each family, rarely: enough to prove long inputs are refused or served. */
function hugeParam(): fc.Arbitrary<Param> {
  return fc.tuple(pick(['filter[name]', 'filter[first_name][prefix]', 'sort', 'include', 'fields[employees]', 'stats[age]', 'page[size]', 'zzz']), hugeText()).map(
    ([key, value]) => `${key}=${encodeComponent(value)}`,
  );
}

/** A query string mixing every parameter family; families may repeat. */
export function queryString(resource: ResourceVocabulary, vocabulary: Vocabulary): fc.Arbitrary<string> {
  const one = fc.oneof(
    { weight: 6, arbitrary: filterParam(resource, vocabulary) },
    { weight: 3, arbitrary: includeParam(resource, vocabulary) },
    { weight: 3, arbitrary: sortParam(resource, vocabulary) },
    { weight: 3, arbitrary: pageParam(resource, vocabulary) },
    { weight: 2, arbitrary: fieldsParam(resource, vocabulary) },
    { weight: 2, arbitrary: statsParam(resource, vocabulary) },
    { weight: 2, arbitrary: noiseParam(vocabulary) },
    { weight: 1, arbitrary: hugeParam() },
  );
  return fc.array(one, { maxLength: 6 }).map((params) => params.join('&'));
}

/** An id in a URL: existing rows mostly, then every kind of nonsense. */
export const memberId: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 40 }).map(String) },
  { weight: 2, arbitrary: pick(EXTREME_NUMBERS).map(encodeComponent) },
  { weight: 2, arbitrary: hostileText.filter((t) => t !== '').map(encodeComponent) },
  { weight: 1, arbitrary: pick(RAW_URL_NOISE.filter((r) => !['&', '=', ';', '+'].includes(r))).map((r) => r.replace('/', '%2F')) },
  { weight: 1, arbitrary: pick(PROTOTYPE_KEYS) },
);

/** A GET on a collection or a member of any Resource, or a path the API does not serve. */
export function readRequest(vocabulary: Vocabulary): fc.Arbitrary<FuzzRequest> {
  const headers = fc.option(fc.constant({ ...ADMIN }), { nil: undefined, freq: 2 });
  const onResource = pick(vocabulary.resources).chain((resource) =>
    fc.record({
      member: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: memberId }),
      query: queryString(resource, vocabulary),
      headers,
    }).map(({ member, query, headers }): FuzzRequest => ({
      method: 'GET',
      path: `${resource.path}${member === undefined ? '' : `/${member}`}${query ? `?${query}` : ''}`,
      headers,
    })),
  );
  const elsewhere = fc.tuple(fc.constantFrom('/api/v1/', '/api/v1/x', '/api/v1/employees/1/positions', '/api/v1/__proto__', '/api/v1/employees/1/', '/api/v1/%FF', '/api/v1/employees//1'), fc.constantFrom('', '?include=x', '?filter[__proto__][eq]=1'))
    .map(([path, query]): FuzzRequest => ({ method: 'GET', path: path + query }));
  return fc.oneof({ weight: 20, arbitrary: onResource }, { weight: 1, arbitrary: elsewhere });
}
