import { ResourceCheckFailed } from '../errors/index.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { lookupChildren } from '../resource/polymorphism.ts';
import { registeredResources } from '../resource/resource-registry.ts';
import { checkMembers, describeResource, type CheckedResource } from './model-checks.ts';
import { hint, ProblemList } from './problem-list.ts';
import { checkRelationships, type RelationshipCheck } from './relationship-checks.ts';
import { checkUniqueness } from './uniqueness-checks.ts';
import { checkRules } from './rule-checks.ts';

type ResourceClass = typeof ResourceBase;

export interface CheckResourcesOptions {
  /** The directory source locations in the message are shown relative to. Default: the working directory. */
  root?: string;
}

/**
 * Checks Resources against their models and each other, once, before
 * anything is served: every mistake a request would otherwise find one at a
 * time (an attribute no model has, a relationship leading nowhere, a missing
 * model, two Resources on one endpoint) is thrown together, as one
 * ResourceCheckFailed listing each with where it was declared. Abstract
 * Resources are skipped; a polymorphic parent's children are checked with it.
 * `muralRouter` and the CLI call it; other hosts should too.
 */
export function checkResources(resources: ReadonlyArray<typeof ResourceBase>, options: CheckResourcesOptions = {}): void {
  const problems = new ProblemList();
  const served = resources.filter((resource) => !resource.abstractClass);
  const checked = [...new Set(served.flatMap((resource) => [resource, ...children(resource, served, problems)]))].filter((r) => !r.abstractClass);
  const described = new Map<ResourceClass, CheckedResource>();
  const remember = (description: CheckedResource) => (described.set(description.resource, description), description);
  // a related Resource is described without reporting on it: it is checked where it is served
  const describe = (resource: ResourceClass) => described.get(resource) ?? remember(describeResource(resource, new ProblemList()));
  const relationshipCheck: RelationshipCheck = { problems, describe, candidates: checked };
  for (const resource of checked) {
    const description = remember(describeResource(resource, problems));
    checkMembers(description, problems);
    checkRelationships(description, relationshipCheck);
    checkRules(description, describe, problems);
  }
  checkUniqueness(served, problems);
  if (problems.problems.length > 0) throw new ResourceCheckFailed(problems.problems, options.root);
}

/** A polymorphic parent's children, each of which it serves; a child that names no Resource is reported. */
function children(resource: ResourceClass, served: readonly ResourceClass[], problems: ProblemList): ResourceClass[] {
  const found: ResourceClass[] = [];
  // children inherit their parent's list: it is the parent's to get right
  if (resource.polymorphic === (Object.getPrototypeOf(resource) as ResourceClass).polymorphic) return found;
  for (const lookup of lookupChildren(resource, served)) {
    if ('resource' in lookup) {
      found.push(lookup.resource);
      continue;
    }
    // children are usually subclasses of their parent: the names a typo most likely meant
    const subclasses = (registeredResources() as ResourceClass[]).filter((r) => r.prototype instanceof resource && !r.abstractClass);
    const fix = lookup.wanted[0] === undefined ? '' : hint(lookup.wanted[0], subclasses.flatMap((r) => [r.name, r.type]), 'declare it, or take it off the list');
    problems.add({ resource, member: 'polymorphic', sites: ['polymorphic'] }, `${lookup.problem}${fix}`);
  }
  return found;
}
