import type { FilterSchema, FlagValue, ResourceSchema, Schema } from './schema-types.ts';

/**
 * The breaking changes from `old` to `current`, one `<Resource>: <change>`
 * line each. Additions never break clients; removals, narrowing and new
 * guards do. Allow lists that lose values and deny lists that gain them break
 * (the Ruby original had this backwards).
 */
export function breakingChanges(old: Schema, current: Schema): string[] {
  const changes: string[] = [];
  const now = new Map(current.resources.map((r) => [r.name, r]));
  for (const before of old.resources) {
    const after = now.get(before.name);
    const say = (change: string) => changes.push(`${before.name}: ${change}`);
    if (!after) say('resource was removed.');
    else diffResource(before, after, say);
  }
  for (const [path, endpoint] of Object.entries(old.endpoints)) {
    const next = current.endpoints[path];
    const owner = Object.values(endpoint.actions)[0]?.resource ?? 'Schema';
    if (!next) changes.push(`${owner}: Endpoint "${path}" was removed.`);
    else for (const action of Object.keys(endpoint.actions)) if (!next.actions[action]) changes.push(`${owner}: Endpoint "${path}" removed action :${action}.`);
  }
  for (const type of Object.keys(old.types)) if (!current.types[type]) changes.push(`Schema: Type :${type} was removed.`);
  return changes;
}

type Say = (change: string) => void;

function diffResource(before: ResourceSchema, after: ResourceSchema, say: Say): void {
  for (const [name, attribute] of Object.entries(before.attributes)) {
    const next = after.attributes[name];
    if (!next) {
      say(`attribute :${name} was removed.`);
      continue;
    }
    if (next.type !== attribute.type) say(`attribute :${name} changed type from "${attribute.type}" to "${next.type}".`);
    for (const flag of ['readable', 'writable'] as const) {
      if (narrowed(attribute[flag], next[flag])) say(`attribute :${name} changed flag :${flag} from ${show(attribute[flag])} to ${show(next[flag])}.`);
    }
  }
  for (const [name, extra] of Object.entries(before.extra_attributes)) {
    const next = after.extra_attributes[name];
    if (!next) say(`extra attribute :${name} was removed.`);
    else if (next.type !== extra.type) say(`extra attribute :${name} changed type from "${extra.type}" to "${next.type}".`);
    else if (narrowed(extra.readable, next.readable)) say(`extra attribute :${name} changed flag :readable from ${show(extra.readable)} to ${show(next.readable)}.`);
  }
  for (const [name, sort] of Object.entries(before.sorts)) {
    const next = after.sorts[name];
    if (!next) say(`sort :${name} was removed.`);
    else {
      if (next.guard && !sort.guard) say(`sort :${name} became guarded.`);
      if (next.only && next.only !== sort.only) say(`sort :${name} is now limited to "${next.only}".`);
    }
  }
  for (const [name, filter] of Object.entries(before.filters)) {
    const next = after.filters[name];
    if (!next) say(`filter :${name} was removed.`);
    else diffFilter(name, filter, next, say);
  }
  for (const [name, calculations] of Object.entries(before.stats)) {
    const next = after.stats[name];
    if (!next) say(`stat :${name} was removed.`);
    else for (const calc of calculations) if (!next.includes(calc)) say(`calculation :${calc} was removed from stat :${name}.`);
  }
  for (const [name, relationship] of Object.entries(before.relationships)) {
    const next = after.relationships[name];
    if (!next) {
      say(`relationship :${name} was removed.`);
      continue;
    }
    if (next.type !== relationship.type) say(`relationship :${name} changed type from "${relationship.type}" to "${next.type}".`);
    if (next.guard && !relationship.guard) say(`relationship :${name} became guarded.`);
    if (next.single && !relationship.single) say(`relationship :${name} became single: true.`);
    if (next.resource !== relationship.resource) say(`relationship :${name} changed resource from ${relationship.resource ?? 'none'} to ${next.resource ?? 'none'}.`);
    for (const lost of (relationship.resources ?? []).filter((r) => !(next.resources ?? []).includes(r))) say(`relationship :${name} no longer includes resource ${lost}.`);
  }
  // a removed relationship was reported above; these report one that stays but no longer serves filter[has] or sorts
  const kept = (name: string) => name in after.relationships;
  for (const name of before.related_filters ?? []) if (kept(name) && !(after.related_filters ?? []).includes(name)) say(`filter[has] no longer reaches :${name}.`);
  for (const name of before.related_sorts ?? []) if (kept(name) && !(after.related_sorts ?? []).includes(name)) say(`sorts no longer go through :${name}.`);
  if (JSON.stringify(before.default_sort) !== JSON.stringify(after.default_sort)) {
    say(`default sort changed from ${JSON.stringify(before.default_sort)} to ${JSON.stringify(after.default_sort)}.`);
  }
  const newlyGuarded = (after.guard ?? []).filter((action) => !(before.guard ?? []).includes(action));
  if (newlyGuarded.length > 0) say(`resource became guarded for ${newlyGuarded.map((a) => `:${a}`).join(', ')}.`);
  // a rule added or changed can hide records a client reads or refuse writes it makes; a rule removed only widens
  for (const [action, rules] of Object.entries(after.rules ?? {})) {
    const earlier = before.rules?.[action];
    if (!earlier) say(`resource became rule-bound for :${action}.`);
    else if (rules.some((rule) => !earlier.includes(rule))) say(`rules for :${action} changed: ${rules.join('; ')}.`);
  }
  if (before.default_page_size !== after.default_page_size) say(`default page size changed from ${before.default_page_size} to ${after.default_page_size}.`);
  // a schema.json from before cursor pagination has no such member: nothing was promised
  if (before.cursor_pagination === true && !after.cursor_pagination) say('cursor pagination (page[after], page[before]) was removed.');
  // clients that send the version back in If-Match would get 400s
  // a client that names the ids it creates (Orbit.js, Ember Data) would get 403s
  if (before.client_generated_ids === true && after.client_generated_ids !== true) say('creates naming their own id (client-generated ids) are no longer accepted.');
  if (typeof before.version_attribute === 'string' && !after.version_attribute) say(`conditional writes by version (If-Match, meta.version) were removed: records no longer carry ${before.version_attribute}.`);
}

function diffFilter(name: string, filter: FilterSchema, next: FilterSchema, say: Say): void {
  if (next.type !== filter.type) say(`filter :${name} changed type from "${filter.type}" to "${next.type}".`);
  for (const operator of filter.operators) if (!next.operators.includes(operator)) say(`filter :${name} removed operator "${operator}".`);
  if (next.required && !filter.required) say(`filter :${name} went from optional to required.`);
  if (next.single && !filter.single) say(`filter :${name} became singular.`);
  if (next.guard && !filter.guard) say(`filter :${name} became guarded.`);
  for (const dependency of next.dependencies ?? []) if (!(filter.dependencies ?? []).includes(dependency)) say(`filter :${name} now depends on :${dependency}.`);
  const key = (v: unknown) => JSON.stringify(v);
  if (next.allow) {
    const allowed = new Set(next.allow.map(key));
    if (!filter.allow) say(`filter :${name} now only allows ${next.allow.map(key).join(', ')}.`);
    else for (const value of filter.allow) if (!allowed.has(key(value))) say(`filter :${name} no longer allows ${key(value)}.`);
  }
  const denied = new Set((filter.deny ?? []).map(key));
  for (const value of next.deny ?? []) if (!denied.has(key(value))) say(`filter :${name} now denies ${key(value)}.`);
}

/** true → guarded → false is the direction that breaks clients. */
function narrowed(before: FlagValue, after: FlagValue): boolean {
  const rank = (v: FlagValue) => (v === true ? 2 : v === 'guarded' ? 1 : 0);
  return rank(after) < rank(before);
}

function show(value: FlagValue): string {
  return value === 'guarded' ? '"guarded"' : String(value);
}
