/**
 * What `filter[has]` and related sorts can reach from a Resource, read from
 * the schema this user may see: paths of relationships (at most `MAX_HOPS`,
 * never back to a Resource already on the path), each leading to one
 * Resource. A polymorphic belongs_to leads to several: the server applies
 * a related filter to each of them, so one is offered only where every one
 * takes it (the same name and type; the operators all of them accept), and
 * such a path ends there, and is never a related sort (the server refuses
 * those). Longer paths through it can still be typed by hand.
 */
const MAX_HOPS = 2;
/** Relationships a related sort may follow: one related record at most. */
const TO_ONE = new Set(['belongs_to', 'has_one']);

function paths(resources, resource, toOne) {
  const byName = new Map(resources.map((r) => [r.name, r]));
  const found = [];
  const walk = (from, prefix, visited) => {
    for (const [name, relationship] of Object.entries(from.relationships)) {
      const path = prefix ? `${prefix}.${name}` : name;
      if (Array.isArray(relationship.resources)) {
        const targets = relationship.resources.map((n) => byName.get(n));
        if (!toOne && targets.length > 0 && targets.every((r) => r && !visited.has(r.name))) found.push({ path, resource: { filters: sharedFilters(targets) } });
        continue;
      }
      const target = relationship.resource && byName.get(relationship.resource);
      if (!target || visited.has(target.name) || (toOne && !TO_ONE.has(relationship.type))) continue;
      found.push({ path, resource: target });
      if (path.split('.').length < MAX_HOPS) walk(target, path, new Set([...visited, target.name]));
    }
  };
  walk(resource, '', new Set([resource.name]));
  return found;
}

/** The filters every one of `targets` takes, by name and type, with the operators all of them accept (in the first one's order). */
function sharedFilters(targets) {
  const [first, ...rest] = targets;
  const shared = {};
  for (const [name, filter] of Object.entries(first.filters)) {
    const others = rest.map((r) => (Object.hasOwn(r.filters, name) ? r.filters[name] : undefined));
    if (others.some((o) => !o || o.type !== filter.type)) continue;
    const operators = filter.operators.filter((op) => others.every((o) => o.operators.includes(op)));
    if (operators.length > 0) shared[name] = { ...filter, operators };
  }
  return shared;
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
