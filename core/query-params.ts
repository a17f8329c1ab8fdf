import { InvalidQueryError } from './errors/index.ts';

/** A comma-separated list (`'a,b'`) or an array of names. */
export type NameList = string | readonly string[];

/** A page size or number: a number, or its decimal text as a URL carries it. */
export type PageValue = number | `${number}`;

/**
 * `page`: the primary records' `size` and `number` (offset pagination) or
 * `after` / `before` (cursor pagination: an opaque cursor from a previous
 * page, or `''` for the first / last page), and `page[<type>][size]` for
 * included records per parent.
 */
export interface PageParams {
  size?: PageValue;
  number?: PageValue;
  after?: string;
  before?: string;
  [type: string]: PageValue | string | { size?: PageValue } | undefined;
}

/**
 * A JSON:API query, as `Resource.all` takes it and as the HTTP layer parses a
 * query string into. Values are strings when they come from a URL and may be
 * any JSON value in-process; the query stage checks each against the
 * Resource's declarations before any SQL runs.
 */
export interface QueryParams {
  /** `{ age: { gte: 30 } }`, `{ name: 'Ada,Grace' }`, `{ id: [1, 2] }`; deep: `{ 'positions.title': 'Engineer' }`. */
  filter?: Readonly<Record<string, unknown>>;
  /** `'-age,last_name'`; deep: `'-positions.rank'`. */
  sort?: NameList;
  page?: PageParams;
  include?: NameList;
  /** `{ age: 'average,maximum' }`, `{ total: 'count' }`; deep: `{ positions: { total: 'count' } }`. */
  stats?: Readonly<Record<string, NameList | Readonly<Record<string, NameList>>>>;
  /** Sparse fieldsets by type: `{ employees: 'first_name,age' }`. */
  fields?: Readonly<Record<string, NameList>>;
  extra_fields?: Readonly<Record<string, NameList>>;
  /** Members added to each record's `meta`, by type: `{ employees: 'permissions' }`. */
  meta_fields?: Readonly<Record<string, NameList>>;
}

/** `find`'s query: a QueryParams naming the record. */
export interface FindParams extends QueryParams {
  id: string | number;
}

/** `['filter', 'age', 'gte']` → `filter[age][gte]`, as errors name parameters. */
export function parameterName(path: readonly string[]): string {
  const [head, ...rest] = path;
  return head + rest.map((p) => `[${p}]`).join('');
}

/** A comma list or an array of names, as `sort`, `include`, `fields` and `stats` take; anything else is a 400. */
export function listOf(value: unknown, parameter: string): string[] {
  if (value === undefined || value === null || value === '') return [];
  const items = Array.isArray(value) ? value : [value];
  const names = items.flatMap((item) => {
    if (typeof item === 'string') return item.split(',');
    if (typeof item === 'number' || typeof item === 'boolean') return [String(item)];
    throw new InvalidQueryError('invalid_parameter', `${parameter} takes a comma-separated list of names`, { parameter });
  });
  return names.map((v) => v.trim()).filter((v) => v !== '');
}
