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

/** A comma list or an array, as `sort`, `include`, `fields` and `stats` take. */
export function listOf(value: unknown): string[] {
  if (value === undefined || value === null || value === '') return [];
  const items = Array.isArray(value) ? value : String(value).split(',');
  return items.map((v) => String(v).trim()).filter((v) => v !== '');
}
