import { didYouMean } from '../did-you-mean.ts';
import { InvalidQueryError } from '../errors/index.ts';
import { listOf } from '../query-params.ts';
import type { ResourceBase } from '../resource/resource-base.ts';

type ResourceClass = typeof ResourceBase;

/** What `meta_fields[type]` may ask of each record: what the caller may do with it. */
export const META_FIELDS = ['permissions'] as const;

/**
 * Reads `meta_fields[type]`, as `fields[type]` is read: types the request
 * does not touch are ignored, a name Mural does not know is a 400.
 */
export function buildMetaFields(raw: Record<string, unknown>, resourcesByType: ReadonlyMap<string, readonly ResourceClass[]>): Map<string, Set<string>> {
  const result = new Map<string, Set<string>>();
  for (const [type, value] of Object.entries(raw)) {
    const parameter = `meta_fields[${type}]`;
    const names = listOf(value, parameter);
    const unknown = names.find((name) => !(META_FIELDS as readonly string[]).includes(name));
    if (unknown !== undefined) {
      throw new InvalidQueryError('unknown_meta_field', `Unknown meta field "${unknown}" on ${type}; ${didYouMean(unknown, META_FIELDS)}available: ${META_FIELDS.join(', ')}`, { parameter });
    }
    if (resourcesByType.has(type) && names.length > 0) result.set(type, new Set(names));
  }
  return result;
}
