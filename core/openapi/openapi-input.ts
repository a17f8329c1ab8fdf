import { ResourceConfigurationError } from '../errors/index.ts';
import { targetResources } from '../query/include-tree.ts';
import type { RelationshipDefinition } from '../resource/relationship-definition.ts';
import { variantsOf } from '../resource/polymorphism.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import type { ResourceSchema, Schema } from '../schema/schema-types.ts';
import type { OpenApiView } from './openapi-view.ts';

export type ResourceClass = typeof ResourceBase;

/** One Resource as the description reads it: its class, its schema.json entry, and its components' name. */
export interface DescribedResource {
  readonly resource: ResourceClass;
  readonly schema: ResourceSchema;
  /** The key of its schemas under `components`: the class name, unique in the document. */
  readonly component: string;
  /** What the document shows of it: its relationships are asked of the view, never of the configuration. */
  readonly view: OpenApiView;
}

/**
 * What every part of the description is built from: the schema `mural
 * schema export` writes for the served Resources, and the same entry for
 * every Resource a response may carry (a relationship may lead to one that
 * has no endpoint of its own). Each family of paths is a function of this.
 */
export interface OpenApiInput {
  readonly schema: Schema;
  /** Served Resources and everything their relationships reach, sorted by name. */
  readonly resources: readonly DescribedResource[];
  describe(resource: ResourceClass): DescribedResource;
  /** The Resource schema.json names `name` (endpoints refer to Resources by name). */
  named(name: string): DescribedResource;
  /** Every Resource a document of `resource` may hold in `included`, or write in it. */
  reachable(resource: ResourceClass): readonly DescribedResource[];
}

export function openApiInput(view: OpenApiView): OpenApiInput {
  const { schema, roots: concrete } = view;
  const closure = (start: readonly ResourceClass[]) => reachableFrom(start, view);
  const all = closure(concrete).sort((a, b) => compare(a.name, b.name) || compare(a.type, b.type));
  const byClass = new Map<ResourceClass, DescribedResource>();
  const used = new Set<string>();
  for (const resource of all) {
    const base = resource.name.replace(/[^A-Za-z0-9._-]/g, '_') || 'Resource';
    let component = base;
    for (let n = 2; used.has(component); n++) component = `${base}_${n}`;
    used.add(component);
    byClass.set(resource, { resource, schema: view.entry(resource), component, view });
  }
  const byName = new Map(concrete.map((r) => [r.name, byClass.get(r)!]));
  const reachable = new Map<ResourceClass, DescribedResource[]>();
  return {
    schema,
    resources: [...byClass.values()],
    describe: (resource) => byClass.get(resource) ?? fail(resource.name),
    named: (name) => byName.get(name) ?? fail(name),
    reachable(resource) {
      let found = reachable.get(resource);
      if (!found) {
        found = closure(variantsOf(resource).filter((r) => byClass.has(r))).map((r) => byClass.get(r)!).sort((a, b) => compare(a.component, b.component));
        reachable.set(resource, found);
      }
      return found;
    },
  };
}

/** The Resources a relationship's records may be; none when it names no Resource (reported when it is used). */
export function relationshipTargets(relationship: RelationshipDefinition): readonly ResourceClass[] {
  try {
    return targetResources(relationship);
  } catch {
    return [];
  }
}

/** `start` and every Resource reachable from it through the relationships the view shows, in the order found. */
function reachableFrom(start: readonly ResourceClass[], view: OpenApiView): ResourceClass[] {
  const seen = new Set<ResourceClass>(start);
  const queue = [...start];
  for (let i = 0; i < queue.length; i++) {
    for (const relationship of new Set([...view.relationships(queue[i]!, 'read'), ...view.relationships(queue[i]!, 'write')])) {
      for (const target of relationshipTargets(relationship)) {
        if (seen.has(target) || target.abstractClass) continue;
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return queue;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function fail(name: string): never {
  throw new ResourceConfigurationError(`${name} is not among the described Resources`);
}
