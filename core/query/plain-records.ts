import { variantsOf } from '../resource/polymorphism.ts';
import { resolveGuard, type Guard } from '../resource/guard.ts';
import { ResourceBase } from '../resource/resource-base.ts';

const verdicts = new WeakMap<object, boolean>();

/**
 * Whether a Resource's records can be rendered from plain rows instead of
 * model instances: nothing user-written receives a record (no attribute
 * blocks, no guards taking a model, no custom resolve, no block of an
 * included relationship; see includesNeedModels). Building model instances is most of an ORM's read cost, so the
 * HTTP path skips it whenever no user code could tell the difference.
 */
export function canUsePlainRecords(resource: typeof ResourceBase, extraFields?: ReadonlySet<string>): boolean {
  let verdict = verdicts.get(resource);
  if (verdict === undefined) verdicts.set(resource, (verdict = variantsOf(resource).every(ownVerdict)));
  if (!verdict) return verdict;
  if (!extraFields) return ![...resource.config.attributes.values()].some((a) => a.extra && a.block);
  // an extra attribute's block matters only when the request asks for it
  return ![...extraFields].some((name) => variantsOf(resource).some((r) => r.config.attributes.get(name)?.block));
}

function ownVerdict(resource: typeof ResourceBase): boolean {
  if (resource.prototype.resolve !== ResourceBase.prototype.resolve) return false;
  const takesModel = (guard: Guard | 'required') =>
    typeof guard !== 'boolean' && guard !== 'required' && resolveGuard(guard, resource.prototype, resource.name).arity > 0;
  for (const attribute of resource.config.attributes.values()) {
    if ((attribute.block && !attribute.extra) || takesModel(attribute.readable)) return false;
  }
  return !readsBeyondColumns(resource);
}

/**
 * Whether an attribute renders what only a model instance carries: a getter
 * or virtual attribute of the model (as its adapter describes it), or what a
 * `virtual: true` attribute stands for. A plain row has its columns alone.
 */
function readsBeyondColumns(resource: typeof ResourceBase): boolean {
  const attributes = [...resource.config.attributes.values()].filter((a) => !a.block && a.readable !== false);
  if (attributes.some((a) => a.virtual)) return true;
  if (resource.model === undefined || !resource.adapter) return false;
  const properties = new Set(resource.adapterInstance().describeModel?.(resource.model)?.properties);
  return attributes.some((a) => properties.has(a.name));
}

/**
 * Whether a load may read plain rows: its Resource allows them for the extra
 * fields asked of its type, and no relationship block in `includes` (the
 * includes under these records, and the one loading them, if any) receives them.
 */
export function readsPlainRows(
  resource: typeof ResourceBase,
  extraFields: ReadonlyMap<string, ReadonlySet<string>>,
  includes: Parameters<typeof includesNeedModels>[0],
): boolean {
  return canUsePlainRecords(resource, extraFields.get(resource.type) ?? new Set()) && !includesNeedModels(includes);
}

/** Relationship blocks receive the parent records; an include using one needs model instances for its parents. */
function includesNeedModels(nodes: ReadonlyArray<{ relationship: { params?: unknown; assign?: unknown; assignEach?: unknown } }>): boolean {
  return nodes.some(({ relationship: r }) => Boolean(r.params || r.assign || r.assignEach));
}
