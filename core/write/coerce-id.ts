import { TypeCoercionError, type MuralErrorOptions } from '../errors/index.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { lookupType } from '../types/index.ts';

/**
 * An id a write names (in the URL or a resource identifier), coerced by the
 * Resource's declared `id` type exactly as reads coerce `filter[id]`, so a
 * value the database could not compare is a 400 before any SQL runs.
 */
export function coerceId(resource: typeof ResourceBase, id: string, location: Omit<MuralErrorOptions, 'detail'> = {}): unknown {
  const attribute = resource.config.attributes.get('id');
  try {
    return lookupType(attribute?.type ?? 'integer_id').params(id);
  } catch (error) {
    if (error instanceof TypeCoercionError) throw new TypeCoercionError(error.typeName, error.value, location);
    throw error;
  }
}
