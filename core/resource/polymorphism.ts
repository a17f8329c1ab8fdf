import { variantsOf } from '../query/include-tree.ts';
import type { Resource } from './resource.ts';

type ResourceClass = typeof Resource;

/**
 * The Resource a record renders as. A polymorphic parent hands each record to
 * the child whose model the record is an instance of, or whose type equals
 * the record's `polymorphicColumn` (single-table inheritance).
 */
export function variantFor(resource: ResourceClass, record: object): ResourceClass {
  if (!resource.polymorphic?.length) return resource;
  const [, ...children] = variantsOf(resource);
  const byModel = children.find((c) => c.model !== resource.model && typeof c.model === 'function' && record instanceof (c.model as new () => object));
  if (byModel) return byModel;
  const value = (record as Record<string, unknown>)[resource.polymorphicColumn];
  return children.find((c) => c.type === value) ?? resource;
}

/** The polymorphic parent that lists `resource` as a child, if any. */
export function polymorphicParentOf(resource: ResourceClass): ResourceClass | undefined {
  for (let parent = Object.getPrototypeOf(resource) as ResourceClass | null; parent && 'config' in parent; parent = Object.getPrototypeOf(parent) as ResourceClass | null) {
    if (parent.polymorphic?.length && variantsOf(parent).includes(resource)) return parent;
  }
  return undefined;
}

/**
 * The Resources whose records a Resource's endpoint may serve: a polymorphic
 * parent's every child, or the Resource alone (a child inherits the parent's
 * `polymorphic` list, but its base scope serves only its own rows).
 */
export function servedResources(resource: ResourceClass): ResourceClass[] {
  return polymorphicParentOf(resource) ? [resource] : [...new Set(variantsOf(resource))];
}
