import { usableFilterNames } from '../query/build-filters.ts';
import { readableNow } from '../query/include-tree.ts';
import { sortableNames } from '../query/sortable-names.ts';
import { resolveGuard } from '../resource/guard.ts';
import { variantsOf } from '../resource/polymorphism.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { resourceReadable } from '../resource/resource-guard.ts';
import { buildSchema, resourceSchema } from './build-schema.ts';
import type { FlagValue, ResourceSchema, Schema } from './schema-types.ts';

type ResourceClass = typeof ResourceBase;

/**
 * The schema as the current request (`withContext`) may use it: what a guard
 * refuses now is left out, as the API would refuse it: Resources it may not
 * read, filters, sorts and relationships it may not use, attributes it may
 * neither read nor write. What a guard allows keeps its `guarded` mark, and
 * a guard that needs the record (it declares the model) stays `"guarded"`,
 * decided per record.
 */
export function visibleSchema(resources: readonly ResourceClass[]): Schema {
  const full = buildSchema(resources);
  const classes = new Map([...new Set(resources.flatMap(variantsOf))].map((r) => [r.name, r]));
  const shown = full.resources.filter((entry) => resourceReadable(classes.get(entry.name)!));
  const names = new Set(shown.map((entry) => entry.name));
  const endpoints: Schema['endpoints'] = {};
  for (const [path, { actions }] of Object.entries(full.endpoints)) {
    const kept = Object.entries(actions).filter(([, { resource }]) => names.has(resource));
    if (kept.length > 0) endpoints[path] = { actions: Object.fromEntries(kept) };
  }
  return { resources: shown.map((entry) => visibleResource(entry, new (classes.get(entry.name)!)(), names)), endpoints, types: full.types };
}

/**
 * One Resource's schema entry as the current request may use it, as
 * `visibleSchema` lists it; `shown` names the Resources kept beside it, to
 * which its polymorphic children are narrowed.
 */
export function visibleResourceSchema(resource: ResourceClass, shown: ReadonlySet<string>): ResourceSchema {
  return visibleResource(resourceSchema(resource), new resource(), shown);
}

function visibleResource(entry: ResourceSchema, resource: ResourceBase, names: ReadonlySet<string>): ResourceSchema {
  const { config } = resource.resourceClass;
  const attributes: ResourceSchema['attributes'] = {};
  for (const [name, attribute] of Object.entries(entry.attributes)) {
    const definition = config.attributes.get(name)!;
    const readable = flagNow(resource, attribute.readable, definition.readable, name);
    const writable = flagNow(resource, attribute.writable, definition.writable, name);
    if (readable !== false || writable !== false) attributes[name] = { ...attribute, readable, writable };
  }
  const extra: ResourceSchema['extra_attributes'] = {};
  for (const [name, attribute] of Object.entries(entry.extra_attributes)) {
    const readable = flagNow(resource, attribute.readable, config.attributes.get(name)!.readable, name);
    if (readable !== false) extra[name] = { ...attribute, readable };
  }
  const relationships = Object.entries(entry.relationships).filter(([name]) => readableNow(resource, config.relationships.get(name)!));
  const related = new Set(relationships.map(([name]) => name));
  return {
    ...entry,
    attributes,
    extra_attributes: extra,
    sorts: pick(entry.sorts, sortableNames(resource)),
    filters: pick(entry.filters, usableFilterNames(resource)),
    relationships: Object.fromEntries(relationships),
    ...(entry.related_filters ? { related_filters: entry.related_filters.filter((name) => related.has(name)) } : {}),
    ...(entry.related_sorts ? { related_sorts: entry.related_sorts.filter((name) => related.has(name)) } : {}),
    children: entry.children.filter((name) => names.has(name)),
  };
}

/** A guarded flag decided now when its guard needs no record: refused is `false`, allowed stays `"guarded"`. */
function flagNow(resource: ResourceBase, flag: FlagValue, guard: Parameters<typeof resolveGuard>[0], name: string): FlagValue {
  if (flag !== 'guarded') return flag;
  const resolved = resolveGuard(guard, resource, `${resource.resourceClass.name}.${name}`);
  if (resolved.arity > 0) return 'guarded';
  return resolved.call(resource) ? 'guarded' : false;
}

function pick<T>(record: Record<string, T>, allowed: readonly string[]): Record<string, T> {
  const keep = new Set(allowed);
  return Object.fromEntries(Object.entries(record).filter(([name]) => keep.has(name)));
}
