import { ResourceConfigurationError } from '../errors/index.ts';
import type { ResourceBase } from './resource-base.ts';
import { pluralize, singularize } from './naming.ts';
import type { RelationshipDefinition, ResourceReference } from './relationship-definition.ts';
import { configurationCache } from './revision.ts';
import { closestMatch, registeredResources } from './resource-registry.ts';

type ResourceClass = typeof ResourceBase;

function isResourceClass(value: unknown): value is ResourceClass {
  return typeof value === 'function' && 'config' in value && 'adapterInstance' in value;
}

/** What a reference led to: its Resource class, or why none, and the names looked for (for a did-you-mean). */
export type RelatedLookup = { readonly resource: ResourceClass } | Unresolved;

export interface Unresolved {
  readonly problem: string;
  readonly wanted: readonly string[];
}

/**
 * The Resource class a reference names, seen from `from`: a class is itself,
 * a thunk is called (so declaration order never matters), a string is a type
 * or class name, case-insensitive, with or without the `Resource` suffix.
 */
export function resolveReference(from: object, reference: ResourceReference): ResourceClass {
  return found(from, lookupReference(from, reference));
}

function lookupReference(from: object, reference: ResourceReference, known: readonly ResourceClass[] = []): RelatedLookup {
  if (isResourceClass(reference)) return { resource: reference };
  if (typeof reference === 'function') {
    let value: unknown;
    try {
      value = (reference as () => unknown)();
    } catch (error) {
      return { problem: `its resource thunk threw: ${(error as Error).message}`, wanted: [] };
    }
    return isResourceClass(value) ? { resource: value } : { problem: 'its resource thunk did not return a Resource class', wanted: [] };
  }
  const resource = findByName(from, [reference], known);
  return resource ? { resource } : { problem: `no Resource named "${reference}"`, wanted: [reference] };
}

const resolved = configurationCache<RelationshipDefinition, ResourceClass>();

/**
 * The related Resource of a relationship, inferred from its name when not
 * given. Remembered until another Resource is declared: links and sideloads
 * ask for it once per record.
 */
export function relatedResource(definition: RelationshipDefinition, reference = definition.resource): ResourceClass {
  return resolved(definition, reference, () => found(definition.owner, lookupRelated(definition, reference)));
}

/**
 * As relatedResource, or undefined when the reference leads nowhere: for
 * what runs over every declared relationship (indexes, locks) and leaves
 * an unresolvable one to be reported where it is used.
 */
export function relatedResourceIfAny(definition: RelationshipDefinition, reference = definition.resource): ResourceClass | undefined {
  try {
    return relatedResource(definition, reference);
  } catch {
    return undefined;
  }
}

/**
 * As relatedResource, but answering what went wrong rather than throwing:
 * for checkResources, which also names the Resources it checks (`known`).
 * They are registered already, unless they were declared against another
 * copy of Mural than the one checking them, whose registry this one cannot see.
 */
export function lookupRelated(definition: RelationshipDefinition, reference = definition.resource, known: readonly ResourceClass[] = []): RelatedLookup {
  if (reference) return lookupReference(definition.owner, reference, known);
  const plural = definition.kind === 'belongs_to' || definition.kind === 'has_one' ? pluralize(definition.name) : definition.name;
  const singular = singularize(plural);
  const className = singular.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());
  const resource = findByName(definition.owner, [plural, className], known);
  if (resource) return { resource };
  return { problem: `no Resource named "${plural}" or "${className}Resource"`, wanted: [plural, `${className}Resource`] };
}

function findByName(from: object, names: string[], known: readonly ResourceClass[] = []): ResourceClass | undefined {
  const wanted = names.map((n) => n.toLowerCase());
  const candidates = [...new Set([...(registeredResources() as ResourceClass[]), ...known])].filter((r) => {
    if (r.abstractClass) return false;
    const className = r.name.toLowerCase();
    return wanted.some((n) => n === r.type.toLowerCase() || n === className || `${n}resource` === className);
  });
  return closestMatch(from, candidates);
}

function found(from: object, lookup: RelatedLookup): ResourceClass {
  if ('resource' in lookup) return lookup.resource;
  const fix = lookup.wanted.length > 0 ? '; pass resource: to the relationship' : '';
  throw new ResourceConfigurationError(`${(from as { name?: string }).name}: ${lookup.problem}${fix}`);
}
