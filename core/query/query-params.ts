import { InvalidQueryError } from '../errors/index.ts';

/**
 * A JSON:API query, as `Resource.all` takes it and as the HTTP layer parses a
 * query string into. Values are strings when they come from a URL and may be
 * any JSON value in-process.
 */
export interface QueryParams {
  filter?: Record<string, unknown>;
  sort?: string | string[];
  page?: Record<string, unknown>;
  include?: string | string[];
  stats?: Record<string, unknown>;
  fields?: Record<string, string | string[]>;
  extra_fields?: Record<string, string | string[]>;
  [parameter: string]: unknown;
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
