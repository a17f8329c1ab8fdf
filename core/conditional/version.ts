import { Buffer } from 'node:buffer';
import type { ResourceBase } from '../resource/resource-base.ts';
import { modelValue } from '../resource/model-value.ts';

type ResourceClass = typeof ResourceBase;

/**
 * The attribute holding a Resource's record version: its `versionAttribute`
 * setting, else the adapter's own (Sequelize's `version: true` column), else
 * none, and the Resource takes no `If-Match` but `*`.
 */
export function versionAttributeOf(resourceClass: ResourceClass): string | undefined {
  const declared = resourceClass.versionAttribute;
  if (declared !== undefined) return declared === false ? undefined : declared;
  if (!resourceClass.adapter || resourceClass.model === undefined) return undefined;
  return resourceClass.adapterInstance().versionAttribute?.(resourceClass.model);
}

/** A record's version token, as its ETag carries it; undefined when its Resource declares no version. */
export function versionOf(resourceClass: ResourceClass, record: object): string | undefined {
  const attribute = versionAttributeOf(resourceClass);
  if (attribute === undefined) return undefined;
  return formatVersion(modelValue(record, attribute));
}

/**
 * A version value as the token inside an entity tag: integers and
 * timestamps (milliseconds) as digits, anything else base64url-encoded, so
 * that the token never holds a quote, a comma or a dot.
 */
export function formatVersion(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (value instanceof Date) return String(value.getTime());
  if (typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value))) return String(value);
  const text = String(value);
  if (/^-?\d{1,30}$/.test(text)) return text;
  return `b${Buffer.from(text, 'utf8').toString('base64url')}`;
}
