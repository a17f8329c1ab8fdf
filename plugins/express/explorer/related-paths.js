/**
 * What `filter[has]` and related sorts can reach from a Resource, read from
 * the schema this user may see: paths of relationships (at most `MAX_HOPS`,
 * never back to a Resource already on the path), each leading to one
 * Resource. A polymorphic belongs_to names several Resources and is left
 * out; the API still takes such paths typed by hand.
 */
const MAX_HOPS = 2;
/** Relationships a related sort may follow: one related record at most. */
const TO_ONE = new Set(['belongs_to', 'has_one']);

function paths(resources, resource, toOne) {
  const byName = new Map(resources.map((r) => [r.name, r]));
  const found = [];
  const walk = (from, prefix, visited) => {
    for (const [name, relationship] of Object.entries(from.relationships)) {
      const target = relationship.resource && byName.get(relationship.resource);
      if (!target || visited.has(target.name) || (toOne && !TO_ONE.has(relationship.type))) continue;
      const path = prefix ? `${prefix}.${name}` : name;
      found.push({ path, resource: target });
      if (path.split('.').length < MAX_HOPS) walk(target, path, new Set([...visited, target.name]));
    }
  };
  walk(resource, '', new Set([resource.name]));
  return found;
}

/** `filter[has]` choices: `{ name: 'positions.department.name', type, operators }` for every filter at the end of every path. */
export function relatedFilters(resources, resource) {
  return paths(resources, resource, false).flatMap(({ path, resource: target }) =>
    Object.entries(target.filters).map(([name, filter]) => ({ name: `${path}.${name}`, type: filter.type, operators: filter.operators })));
}

/** Related sorts: `department.name` for every sortable attribute at the end of a path of to-one relationships. */
export function relatedSorts(resources, resource) {
  return paths(resources, resource, true).flatMap(({ path, resource: target }) =>
    Object.keys(target.sorts).filter((name) => Object.hasOwn(target.attributes, name)).map((name) => `${path}.${name}`));
}
