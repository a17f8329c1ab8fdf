import type { Action } from '../resource/action.ts';
import { relatedResourceIfAny } from '../resource/resolve-resource.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { RULE_ACTIONS, type RuleAction } from '../resource/row-rule.ts';

type ResourceClass = typeof ResourceBase;

/** The rule actions a Resource declares rules for, in RULE_ACTIONS order: what `schema.json` and `mural guards` list. */
export function ruledActions(resourceClass: ResourceClass): RuleAction[] {
  const declared = new Set(resourceClass.config.rules.map((definition) => definition.action));
  return RULE_ACTIONS.filter((action) => declared.has(action));
}

/**
 * The endpoint actions a row rule can refuse with a 403: a create or update
 * whose record would end outside the read rules or its own, or that links a
 * record whose Resource has `link` rules; a destroy its rules (or a soft
 * delete's purge guard) refuse. (A read
 * rule alone never answers 403: a record outside it is missing.)
 */
export function ruleRefusableActions(resourceClass: ResourceClass): Action[] {
  const ruled = new Set(ruledActions(resourceClass));
  const links = [...resourceClass.config.relationships.values()].some((definition) => {
    const related = relatedResourceIfAny(definition);
    return related !== undefined && ruledActions(related).includes('link');
  });
  const actions: Action[] = [];
  if (ruled.has('read') || ruled.has('create') || links) actions.push('create');
  if (ruled.has('read') || ruled.has('update') || links) actions.push('update');
  // a soft-deleting Resource's purge guard refuses a DELETE in the trash
  if (ruled.has('destroy') || resourceClass.config.softDelete) actions.push('destroy');
  return actions;
}
