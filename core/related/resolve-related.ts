import { InvalidEndpointError, RelationshipNotFound } from '../errors/index.ts';
import { readableNow } from '../query/include-tree.ts';
import type { QueryParams } from '../query-params.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { declaredBy, readableRelationship } from './find-relationship.ts';
import { loadParent } from './load-parent.ts';
import { relatedTarget, type RelatedTarget } from './related-target.ts';

type ResourceClass = typeof ResourceBase;

/** `{parent}/{id}/{name}`: a relationship of one record, to read. */
export interface RelatedRequest {
  readonly parent: ResourceClass;
  readonly id: unknown;
  readonly name: string;
  /** Replaces the parent Resource's base scope, as `find`'s second argument does. */
  readonly baseScope?: unknown;
}

/**
 * What `GET {ns}/{type}/{id}/{name}` queries: guards first (no query runs
 * for a refused one), then the parent record (one query, 404 when absent),
 * then the related Resource narrowed to that record's related records.
 * `path`, the URL path requested, is checked against the parent's endpoints
 * when it sets `validateEndpoints`.
 */
export async function resolveRelated(request: RelatedRequest, params: QueryParams, path?: string): Promise<RelatedTarget> {
  const { parent: parentClass, name } = request;
  const declared = readableRelationship(parentClass, name);
  if (path !== undefined && parentClass.validateEndpoints) validateParentPath(parentClass, path);
  const parent = await loadParent(parentClass, request.id, request.baseScope);
  const relationship = parent.resource === parentClass ? declared : declaredBy(parent.resource, name, parentClass.type);
  if (relationship !== declared && !readableNow(new parentClass(), relationship)) throw new RelationshipNotFound(parentClass.type, name);
  return relatedTarget(relationship, parent, params);
}

/** The relationship endpoints of a record hang below its `show` endpoint. */
function validateParentPath(parent: ResourceClass, path: string): void {
  const collection = path.replace(/\/[^/]+(?:\/relationships)?\/[^/]+$/, '');
  if (!parent.endpoints.some((e) => e.path === collection && e.actions.includes('show'))) throw new InvalidEndpointError(parent.name, path, 'show');
}
