import { didYouMean } from '../did-you-mean.ts';
import { InvalidQueryError } from '../errors/index.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { listOf } from '../query-params.ts';

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
      throw new InvalidQueryError(
        parameterRoot === 'fields' ? 'unknown_field' : 'unknown_extra_field',
        `Unknown ${parameterRoot === 'fields' ? 'field' : 'extra field'} ${unknown.map((u) => `"${u}"`).join(', ')} on ${type}; ${unknown.length === 1 ? didYouMean(unknown[0]!, known) : ''}available: ${[...known].join(', ') || 'none'}`,
        { parameter: `${parameterRoot}[${type}]` },
      );
    }
    result.set(type, new Set(names));
  }
  return result;
}

function knownNames(resource: ResourceClass, root: 'fields' | 'extra_fields'): string[] {
  const attributes = [...resource.config.attributes.values()];
  if (root === 'extra_fields') return attributes.filter((a) => a.extra).map((a) => a.name);
  const plain = attributes.filter((a) => !a.extra && a.readable !== false).map((a) => a.name);
  return [...plain, ...resource.config.relationships.keys()];
}
