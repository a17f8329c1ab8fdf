import { didYouMean } from '../did-you-mean.ts';
import { InvalidQueryError } from '../errors/index.ts';
import type { RelationshipDefinition } from '../resource/relationship-definition.ts';
import { relatedResource } from '../resource/resolve-resource.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { allowedNow } from './guard-check.ts';
import { resourceReadable } from '../resource/resource-guard.ts';
import { servedResources, variantsOf } from '../resource/polymorphism.ts';
import { listOf } from '../query-params.ts';
import { configurationCache } from '../resource/revision.ts';

type ResourceClass = typeof ResourceBase;

/** One relationship to sideload, with what to sideload beneath it. */
export interface IncludeNode {
  readonly name: string;
  /** Dotted path from the root, e.g. `positions.department`. */
  readonly path: string;
  readonly relationship: RelationshipDefinition;
  /** The Resources its records may be: one, or several for polymorphic targets. */
  readonly resources: readonly ResourceClass[];
  readonly children: IncludeNode[];
  /** Loaded only for its linkage (`alwaysIncludeResourceIds`); its records are not `included`. */
  readonly implicit?: boolean;
}

/** Per relationship, what its declarations make of it: asked on every request that includes or renders it. */
const targets = configurationCache<RelationshipDefinition, readonly ResourceClass[]>();
const guardedTargets = configurationCache<RelationshipDefinition, readonly ResourceClass[]>();

/** The Resources a relationship's records may be. */
export function targetResources(relationship: RelationshipDefinition): readonly ResourceClass[] {
  return targets(relationship, undefined, () => [...new Set(declaredTargets(relationship).flatMap(variantsOf))]);
}

/** The Resources a relationship names, before polymorphic children are added. */
function declaredTargets(relationship: RelationshipDefinition): ResourceClass[] {
  return relationship.kind === 'polymorphic_belongs_to'
    ? relationship.groups!.map((g) => relatedResource(relationship, g.resource ?? g.value))
    : [relatedResource(relationship)];
}

/** Finds a relationship on any of the Resources a node stands for. */
export function findRelationship(resources: readonly ResourceClass[], name: string): RelationshipDefinition | undefined {
  for (const resource of resources) {
    const found = resource.config.relationships.get(name);
    if (found) return found;
  }
  return undefined;
}

/**
 * Parses `include` into a tree, checking names and depth. A relationship whose
 * readable guard refuses is dropped silently, with everything under it, before
 * any query runs.
 */
export function buildIncludeTree(resource: ResourceBase, raw: unknown): IncludeNode[] {
  const rootClass = resource.resourceClass;
  const maxDepth = rootClass.maxIncludeDepth;
  const roots: IncludeNode[] = [];
  const paths = listOf(raw, 'include');
  // checked on the raw list first, so a million repeated paths cost no tree walk
  if (paths.length > rootClass.maxIncludes) throw tooManyIncludes(paths.length, rootClass.maxIncludes, 'paths');
  for (const path of paths) {
    const segments = path.split('.');
    if (segments.length > maxDepth) {
      throw new InvalidQueryError('include_too_deep', `Include "${path}" is ${segments.length} levels deep; the maximum is ${maxDepth}`, {
        parameter: 'include',
      });
    }
    addPath(resource, variantsOf(rootClass), roots, segments, '');
  }
  const relationships = breadthFirst(roots).length;
  if (relationships > rootClass.maxIncludes) throw tooManyIncludes(relationships, rootClass.maxIncludes, 'relationships');
  addImplicitNodes(resource, variantsOf(rootClass), roots, '');
  return roots;
}

/** Each included relationship costs a query; a request may not ask for more than `maxIncludes`. */
function tooManyIncludes(count: number, max: number, what: string): InvalidQueryError {
  return new InvalidQueryError('too_many_includes', `Include names ${count} ${what}; the maximum is ${max}`, { parameter: 'include' });
}

/** Relationships with `alwaysIncludeResourceIds` are loaded for linkage even when not included. */
function addImplicitNodes(resource: ResourceBase, resources: readonly ResourceClass[], level: IncludeNode[], prefix: string): void {
  for (const node of level) if (!node.implicit) addImplicitNodes(resource, node.resources, node.children, node.path);
  for (const relationship of new Set(resources.flatMap((r) => [...r.config.relationships.values()]))) {
    if (!relationship.alwaysIncludeResourceIds || level.some((n) => n.name === relationship.name)) continue;
    if (!readableNow(resource, relationship)) continue;
    const path = prefix ? `${prefix}.${relationship.name}` : relationship.name;
    level.push({ name: relationship.name, path, relationship, resources: targetResources(relationship), children: [], implicit: true });
  }
}

function addPath(resource: ResourceBase, resources: readonly ResourceClass[], level: IncludeNode[], segments: string[], prefix: string): void {
  const [name, ...rest] = segments as [string, ...string[]];
  const path = prefix ? `${prefix}.${name}` : name;
  let node = level.find((n) => n.name === name);
  if (!node) {
    const relationship = findRelationship(resources, name);
    if (!relationship) {
      // only what the caller may read: a hidden relationship is neither listed nor suggested
      const known = [...new Set(resources.flatMap((r) => [...r.config.relationships.values()].filter((x) => readableNow(resource, x)).map((x) => x.name)))];
      throw new InvalidQueryError(
        'unknown_include',
        `Unknown include "${path}" on ${resources[0]!.type}; ${didYouMean(name, known)}relationships: ${known.join(', ') || 'none'}`,
        { parameter: 'include' },
      );
    }
    if (!readableNow(resource, relationship)) return;
    node = { name, path, relationship, resources: targetResources(relationship), children: [] };
    level.push(node);
  }
  if (rest.length > 0) addPath(resource, node.resources, node.children, rest, path);
}

/**
 * A relationship's readable guard, looked up on the declaring Resource, then
 * on the related one; guards take no arguments and read the context. A
 * relationship is also unreadable when a Resource it leads to refuses to be
 * read (`guard(...)` on index or show): it is then treated exactly like one
 * whose own guard refuses — dropped from `include`, absent from rendering.
 */
export function readableNow(resource: ResourceBase, relationship: RelationshipDefinition): boolean {
  return relationshipAllows(resource, relationship, relationship.readable) && targetsReadable(relationship);
}

/** A relationship's writable guard, looked up like its readable one. */
export function writableNow(resource: ResourceBase, relationship: RelationshipDefinition): boolean {
  return relationshipAllows(resource, relationship, relationship.writable);
}

/** Whether every Resource a relationship may lead to allows reading it now. */
export function targetsReadable(relationship: RelationshipDefinition): boolean {
  let served: readonly ResourceClass[];
  try {
    served = guardedTargets(relationship, undefined, () => declaredTargets(relationship).flatMap(servedResources));
  } catch {
    return true; // an unresolvable relationship is reported when it is used
  }
  return served.every(resourceReadable);
}

export function relationshipAllows(resource: ResourceBase, relationship: RelationshipDefinition, guard: RelationshipDefinition['readable']): boolean {
  if (typeof guard === 'boolean') return guard;
  if (typeof guard === 'string') {
    const owner = relationship.owner as ResourceClass;
    const holder = guard in owner.prototype ? owner : relatedResource(relationship);
    return allowedNow(new holder(), guard, `${owner.name}.${relationship.name}`);
  }
  return allowedNow(resource, guard, relationship.name);
}

/** Every node of the tree, breadth first. */
export function breadthFirst(nodes: readonly IncludeNode[]): IncludeNode[] {
  const result: IncludeNode[] = [];
  const queue = [...nodes];
  while (queue.length > 0) {
    const node = queue.shift()!;
    result.push(node);
    queue.push(...node.children);
  }
  return result;
}
