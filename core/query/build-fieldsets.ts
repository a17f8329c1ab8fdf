import { didYouMean } from '../did-you-mean.ts';
import { InvalidQueryError } from '../errors/index.ts';
import type { AttributeDefinition } from '../resource/attribute.ts';
import { resolveGuard } from '../resource/guard.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { listOf } from '../query-params.ts';
import { readableNow } from './include-tree.ts';

type ResourceClass = typeof ResourceBase;

/**
 * Reads `fields[type]` and `extra_fields[type]`. Types the request does not
 * touch are ignored; a name the type does not have is a 400, so typos do not
 * silently empty a response.
 */
export function buildFieldsets(
  raw: Record<string, unknown> | undefined,
  parameterRoot: 'fields' | 'extra_fields',
  resourcesByType: ReadonlyMap<string, readonly ResourceClass[]>,
): Map<string, Set<string>> {
  const result = new Map<string, Set<string>>();
  for (const [type, value] of Object.entries(raw ?? {})) {
    const resources = resourcesByType.get(type);
    const names = listOf(value, `${parameterRoot}[${type}]`);
    if (!resources) continue;
    const known = new Set(resources.flatMap((r) => knownNames(r, parameterRoot)));
    const unknown = names.filter((n) => !known.has(n));
    if (unknown.length > 0) {
      // a guarded name is accepted (and left out of the answer), but not suggested to a caller whose guard refuses it
      const shown = new Set(resources.flatMap((r) => knownNames(r, parameterRoot, new r())));
      throw new InvalidQueryError(
        parameterRoot === 'fields' ? 'unknown_field' : 'unknown_extra_field',
        `Unknown ${parameterRoot === 'fields' ? 'field' : 'extra field'} ${unknown.map((u) => `"${u}"`).join(', ')} on ${type}; ${unknown.length === 1 ? didYouMean(unknown[0]!, shown) : ''}available: ${[...shown].join(', ') || 'none'}`,
        { parameter: `${parameterRoot}[${type}]` },
      );
    }
    result.set(type, new Set(names));
  }
  return result;
}

/** The names `fields` or `extra_fields` take; given the request's instance, only those its guards let it read now. */
function knownNames(resource: ResourceClass, root: 'fields' | 'extra_fields', now?: ResourceBase): string[] {
  const attributes = [...resource.config.attributes.values()].filter((a) => a.readable !== false && (now === undefined || readableAttribute(now, a)));
  if (root === 'extra_fields') return attributes.filter((a) => a.extra).map((a) => a.name);
  const relationships = [...resource.config.relationships.values()].filter((r) => now === undefined || readableNow(now, r));
  return [...attributes.filter((a) => !a.extra).map((a) => a.name), ...relationships.map((r) => r.name)];
}

/** A guard that takes the record is decided per record: the name may be readable. */
function readableAttribute(resource: ResourceBase, attribute: AttributeDefinition): boolean {
  const guard = resolveGuard(attribute.readable, resource, `${resource.resourceClass.name}.${attribute.name}`);
  return guard.arity > 0 || (guard.fixed ?? guard.call(resource));
}
