import { hiddenNow } from '../query/hidden-relationship.ts';
import { readableNow, writableNow } from '../query/include-tree.ts';
import type { Action } from '../resource/action.ts';
import { servedResources, variantsOf } from '../resource/polymorphism.ts';
import type { RelationshipDefinition } from '../resource/relationship-definition.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { resourceAllows, resourceReadable } from '../resource/resource-guard.ts';
import { buildSchema, resourceSchema } from '../schema/build-schema.ts';
import type { ResourceSchema, Schema } from '../schema/schema-types.ts';
import { visibleResourceSchema } from '../schema/visible-schema.ts';

type ResourceClass = typeof ResourceBase;

/**
 * Whose description an OpenAPI document is. `full`: every endpoint and
 * every guarded part, each marked `x-mural-guard` (what `mural openapi`
 * writes, for CI and client generators). `caller`: the API as the current
 * request (`withContext`) may use it, its guards decided now: actions,
 * relationships, attributes, filters and sorts they refuse are left out,
 * and what they allow keeps its mark.
 */
export type OpenApiViewName = 'full' | 'caller';

/** What one view shows of the served Resources: the document's families ask it rather than read configuration. */
export interface OpenApiView {
  /** The endpoints and actions described. */
  readonly schema: Schema;
  /** The Resources the description starts from: those of the endpoints, or every served one. */
  readonly roots: readonly ResourceClass[];
  /** A Resource's schema.json entry as the view shows it. */
  entry(resource: ResourceClass): ResourceSchema;
  /** The relationships of one Resource (not its variants) shown for reading, or for writing. */
  relationships(resource: ResourceClass, access: 'read' | 'write'): readonly RelationshipDefinition[];
}

export function openApiView(served: readonly ResourceClass[], name: OpenApiViewName = 'full'): OpenApiView {
  const schema = buildSchema(served);
  const concrete = [...new Set(served.flatMap(variantsOf))].filter((r) => !r.abstractClass);
  if (name === 'full') {
    return { schema, roots: concrete, entry: resourceSchema, relationships: (resource) => [...resource.config.relationships.values()] };
  }
  return callerView(schema, concrete);
}

/** Decided once, when the view is made: one document is built in one request's context. */
function callerView(full: Schema, concrete: readonly ResourceClass[]): OpenApiView {
  const byName = new Map(concrete.map((r) => [r.name, r]));
  const endpoints: Schema['endpoints'] = {};
  for (const [path, { actions }] of Object.entries(full.endpoints)) {
    const kept = Object.entries(actions).filter(([action, { resource }]) => allowsNow(byName.get(resource)!, action as Action));
    if (kept.length > 0) endpoints[path] = { actions: Object.fromEntries(kept) };
  }
  const named = new Set(Object.values(endpoints).flatMap(({ actions }) => Object.values(actions).map(({ resource }) => resource)));
  const shown = new Set(concrete.filter(resourceReadable).map((r) => r.name));
  const entries = new Map<ResourceClass, ResourceSchema>();
  const lists = new Map<ResourceClass, Record<'read' | 'write', RelationshipDefinition[]>>();
  const listsOf = (resource: ResourceClass) => {
    let found = lists.get(resource);
    if (!found) {
      const instance = new resource();
      const all = [...resource.config.relationships.values()];
      found = {
        read: all.filter((r) => readableNow(instance, r)),
        write: all.filter((r) => writableNow(instance, r) && !hiddenNow(instance, r)),
      };
      lists.set(resource, found);
    }
    return found;
  };
  const entry = (resource: ResourceClass) => {
    let found = entries.get(resource);
    if (!found) entries.set(resource, (found = visibleResourceSchema(resource, shown)));
    return found;
  };
  // a polymorphic parent's records may be any child's, described even where the child's own endpoints are refused
  const roots = [...new Set(concrete.filter((r) => named.has(r.name)).flatMap(variantsOf))];
  return {
    schema: { resources: full.resources.filter((r) => named.has(r.name)).map((r) => entry(byName.get(r.name)!)), endpoints, types: full.types },
    roots,
    entry,
    relationships: (resource, access) => listsOf(resource)[access],
  };
}

/** As the router decides it: a polymorphic parent's action needs every child's consent. */
function allowsNow(resource: ResourceClass, action: Action): boolean {
  return servedResources(resource).every((r) => resourceAllows(r, action));
}
