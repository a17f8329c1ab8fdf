/**
 * The URL of an index query, from what the builder holds:
 * `{ filters: [{ name, operator, value }], related: [{ negated, path, operator, value }],
 *    sorts: [{ name, descending }],
 *    include: [], fields: [], extraFields: [], stats: [{ name, calculation }],
 *    page: { number, size, cursor } }` (`cursor`: by cursor rather than number).
 * Brackets stay readable, as the README writes them; values are percent-encoded
 * (a comma still separates several values).
 */
export function queryUrl(path, type, query) {
  const parts = [];
  for (const { name, operator, value } of query.filters) {
    if (name && operator) parts.push(`filter[${name}][${operator}]=${encode(value)}`);
  }
  for (const { negated, path, operator, value } of query.related ?? []) {
    if (path && operator) parts.push(`filter[${negated ? 'has_no' : 'has'}][${path}][${operator}]=${encode(value)}`);
  }
  if (query.sorts.length > 0) parts.push(`sort=${query.sorts.map((s) => `${s.descending ? '-' : ''}${s.name}`).join(',')}`);
  if (query.include.length > 0) parts.push(`include=${query.include.join(',')}`);
  if (query.fields.length > 0) parts.push(`fields[${type}]=${query.fields.join(',')}`);
  if (query.extraFields.length > 0) parts.push(`extra_fields[${type}]=${query.extraFields.join(',')}`);
  const stats = new Map();
  for (const { name, calculation } of query.stats) stats.set(name, [...(stats.get(name) ?? []), calculation]);
  for (const [name, calculations] of stats) parts.push(`stats[${name}]=${calculations.join(',')}`);
  if (query.page.number && !query.page.cursor) parts.push(`page[number]=${encode(query.page.number)}`);
  if (query.page.size) parts.push(`page[size]=${encode(query.page.size)}`);
  // an empty cursor: the first page of cursor pagination, whose links carry the next cursors
  if (query.page.cursor) parts.push('page[after]=');
  return parts.length > 0 ? `${path}?${parts.join('&')}` : path;
}

function encode(value) {
  return encodeURIComponent(String(value)).replace(/%2C/gi, ',');
}

/** `Name: value` lines as headers; lines without a colon, and header names a browser refuses, are skipped. */
export function parseHeaders(text) {
  const headers = {};
  for (const line of text.split('\n').slice(0, 20)) {
    const at = line.indexOf(':');
    const name = line.slice(0, at).trim();
    if (at > 0 && /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) headers[name] = line.slice(at + 1).trim();
  }
  return headers;
}
