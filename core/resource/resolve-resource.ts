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

/**
 * The Resource class a reference names, seen from `from`: a class is itself,
 * a thunk is called (so declaration order never matters), a string is a type
 * or class name, case-insensitive, with or without the `Resource` suffix.
 */
export function resolveReference(from: object, reference: ResourceReference): ResourceClass {
  if (isResourceClass(reference)) return reference;
  if (typeof reference === 'function') {
    const value = (reference as () => unknown)();
    if (isResourceClass(value)) return value;
    throw new ResourceConfigurationError(`A resource thunk of ${(from as { name?: string }).name} did not return a Resource class`);
  }
  return findByName(from, [reference]) ?? fail(from, reference);
}

const resolved = configurationCache<RelationshipDefinition, ResourceClass>();

/**
 * The related Resource of a relationship, inferred from its name when not
 * given. Remembered until another Resource is declared: links and sideloads
 * ask for it once per record.
 */
export function relatedResource(definition: RelationshipDefinition, reference = definition.resource): ResourceClass {
  return resolved(definition, reference, () => resolveRelated(definition, reference));
}

function resolveRelated(definition: RelationshipDefinition, reference: ResourceReference | undefined): ResourceClass {
  if (reference) return resolveReference(definition.owner, reference);
  const plural = definition.kind === 'belongs_to' || definition.kind === 'has_one' ? pluralize(definition.name) : definition.name;
  const singular = singularize(plural);
  const className = singular.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());
  return findByName(definition.owner, [plural, className]) ?? fail(definition.owner, `${plural}" or "${className}Resource`);
}

function findByName(from: object, names: string[]): ResourceClass | undefined {
  const wanted = names.map((n) => n.toLowerCase());
  const candidates = (registeredResources() as ResourceClass[]).filter((r) => {
    if (r.abstractClass) return false;
    const className = r.name.toLowerCase();
    return wanted.some((n) => n === r.type.toLowerCase() || n === className || `${n}resource` === className);
  });
  return closestMatch(from, candidates);
}

function fail(from: object, name: string): never {
  throw new ResourceConfigurationError(`${(from as { name?: string }).name}: no Resource named "${name}"; pass resource: to the relationship`);
}
