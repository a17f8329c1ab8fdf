import { equalityClause } from '../adapter/adapter.ts';
import { context as currentContext } from '../context.ts';
import { TRASHED_FILTER, type Trashed } from '../resource/soft-delete.ts';
import type { FilterCondition } from '../query/query-plan.ts';
import { ResourceConfigurationError } from '../errors/index.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { applyTree } from './apply-tree.ts';
import { compileCondition } from './compile-rule.ts';
import { checkCondition, isScopeRule, type RowCondition, type RuleAction } from '../resource/row-rule.ts';

/**
 * `scope` narrowed by every rule the Resource declares for `action`, with the
 * current request's context: all must hold. Reading a soft-deleting
 * Resource, `trashed` says which records: live ones unless asked. With no
 * rule, `scope` itself.
 */
export function ruledScope(resource: ResourceBase, scope: unknown, action: RuleAction = 'read', trashed: Trashed = 'without'): unknown {
  const { rules, softDelete } = resource.resourceClass.config;
  if (action === 'read' && softDelete && trashed !== 'with') {
    scope = resource.adapter.filter(scope, { ...equalityClause(softDelete.column, [null], 'datetime'), negated: trashed === 'only' });
  }
  if (rules.length === 0) return scope;
  const context = currentContext();
  // the context the app built, whatever type the rule's function declared for it
  const given = (context ?? {}) as never;
  let current = scope;
  for (const { action: covered, rule, owner } of rules) {
    if (covered !== action) continue;
    if (isScopeRule(rule)) {
      current = rule.scope(current, given);
      continue;
    }
    const condition = typeof rule === 'function' ? decided(rule(given), owner, action) : rule;
    current = applyTree(resource, current, compileCondition(resource, condition, context));
  }
  return current;
}

/** Whether the Resource declares a rule for `action`. */
export function hasRules(resource: ResourceBase | { readonly config: { readonly rules: ReadonlyArray<{ readonly action: RuleAction }> } }, action: RuleAction): boolean {
  const config = 'resourceClass' in resource ? resource.resourceClass.config : resource.config;
  return config.rules.some((definition) => definition.action === action);
}

/** A rule function's answer, checked as a declared condition is: a mistake is the application's, reported as such. */
function decided(condition: unknown, owner: string, action: RuleAction): RowCondition {
  const where = `${owner}.allow('${action}', fn)`;
  if (isScopeRule(condition)) throw new ResourceConfigurationError(`${where}: a rule function returns a condition; declare a scope function as { scope }`);
  checkCondition(condition, where);
  return condition as RowCondition;
}

/** What a query's `filter[trashed]` asks of a soft-deleting Resource: `without` (live records) unless it says `with` or `only`. */
export function trashedOf(resource: ResourceBase, filters: readonly FilterCondition[]): Trashed {
  if (!resource.resourceClass.config.softDelete) return 'without';
  const value = filters.find((condition) => condition.filter.name === TRASHED_FILTER)?.values[0];
  return value === 'with' || value === 'only' ? value : 'without';
}
