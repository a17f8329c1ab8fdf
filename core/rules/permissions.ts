import type { ConditionTree } from '../adapter/adapter.ts';
import { BadRequestError } from '../errors/index.ts';
import type { QueryPlan } from '../query/query-plan.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { modelValue } from '../resource/model-value.ts';
import { resourceAllows } from '../resource/resource-guard.ts';
import { hasRules, ruledScope } from './rule-scope.ts';

/** The actions `meta.permissions` reports, per record. */
const ACTIONS = ['update', 'destroy'] as const;
type PermissionAction = (typeof ACTIONS)[number];

/** What a record carries in `meta.permissions`: whether this caller may update it, and destroy it. */
export type Permissions = Record<PermissionAction, boolean>;

const columnOf = (action: PermissionAction) => `__mural_may_${action}`;

/** Whether the plan asks `meta.permissions` of the Resource's records. */
export function asksPermissions(plan: Pick<QueryPlan, 'metaFields'>, type: string): boolean {
  return plan.metaFields?.get(type)?.has('permissions') ?? false;
}

/**
 * The scope selecting, for each action a rule decides per record, whether
 * the record meets the action's rules: a column of the records' own query
 * (an `id IN (…)` of the ruled scope), never a query per record.
 */
export function withPermissions(resource: ResourceBase, scope: unknown): unknown {
  let current = scope;
  for (const action of ACTIONS) {
    if (!resourceAllows(resource.resourceClass, action) || !hasRules(resource, action)) continue;
    const { adapter } = resource;
    if (!adapter.annotateTree) throw new BadRequestError('unsupported_meta_field', `${resource.resourceClass.type} cannot report permissions: its adapter has no annotateTree`, { parameter: `meta_fields[${resource.resourceClass.type}]` });
    const ruled = ruledScope(resource, resource.baseScope(), action);
    const tree: ConditionTree = { kind: 'related', condition: { negated: false, links: [{ parentKey: 'id', relatedKey: 'id', scope: ruled }] } };
    current = adapter.annotateTree(current, tree, columnOf(action));
  }
  return current;
}

/** A loaded record's permissions: the Resource's guards, then the column its rules were selected into. */
export function permissionsOf(resourceClass: typeof ResourceBase, record: object): Permissions {
  const permissions = {} as Permissions;
  for (const action of ACTIONS) {
    if (!resourceAllows(resourceClass, action)) permissions[action] = false;
    else if (!hasRules(resourceClass, action)) permissions[action] = true;
    else permissions[action] = truthy(modelValue(record, columnOf(action)));
  }
  return permissions;
}

/** 1 or 0 on SQLite and MySQL, 1 or 0 (or a string of it) on PostgreSQL. */
function truthy(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 1n;
}
