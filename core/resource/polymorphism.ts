import type { RelationshipDefinition } from './relationship-definition.ts';
import { lookupRelated, relatedResource, type RelatedLookup } from './resolve-resource.ts';
import type { ResourceBase } from './resource-base.ts';
import { configurationCache } from './revision.ts';

type ResourceClass = typeof ResourceBase;

/*
 * Every request asks these of the Resources it reads, and the answers only
 * change with declarations: cached against the configuration revision, and
 * keyed by the `polymorphic` list itself, which is assigned rather than declared.
 */
const variants = configurationCache<ResourceClass, readonly ResourceClass[]>();
const parents = configurationCache<ResourceClass, ResourceClass | undefined>();
const served = configurationCache<ResourceClass, readonly ResourceClass[]>();

/** A Resource and the polymorphic children it may stand for. */
export function variantsOf(resource: ResourceClass): readonly ResourceClass[] {
  return variants(resource, resource.polymorphic, () => {
    const children = (resource.polymorphic ?? []).map((ref) => relatedResource({ ...syntheticRelationship(resource), resource: ref }));
    return [resource, ...children];
  });
}

/** Each child the `polymorphic` list names, found or not: for checkResources, which reports every one missing. */
export function lookupChildren(resource: ResourceClass, known: readonly ResourceClass[] = []): RelatedLookup[] {
  return (resource.polymorphic ?? []).map((ref) => lookupRelated(syntheticRelationship(resource), ref, known));
}

/** Children are named as relationship targets are (class, type, name or thunk), so they resolve the same way. */
function syntheticRelationship(owner: ResourceClass): RelationshipDefinition {
  return {
    name: owner.type, kind: 'has_many', primaryKey: 'id', readable: true, writable: true, link: false, single: false,
    alwaysIncludeResourceIds: false, owner,
  };
}

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
  return parents(resource, resource.polymorphic, () => findPolymorphicParent(resource));
}

function findPolymorphicParent(resource: ResourceClass): ResourceClass | undefined {
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
export function servedResources(resource: ResourceClass): readonly ResourceClass[] {
  return served(resource, resource.polymorphic, () => (polymorphicParentOf(resource) ? [resource] : [...new Set(variantsOf(resource))]));
}
