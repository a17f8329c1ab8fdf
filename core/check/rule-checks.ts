import type { ResourceBase } from '../resource/resource-base.ts';
import { relatedResourceIfAny } from '../resource/resolve-resource.ts';
import { combinatorOf, isScopeRule, type RowCondition } from '../resource/row-rule.ts';
import type { CheckedResource } from './model-checks.ts';
import { hint, type ProblemList, type ProblemSubject } from './problem-list.ts';

type ResourceClass = typeof ResourceBase;

/**
 * Every column a rule declared as data names is one of its model's, and
 * every dotted key goes through a belongs_to or has_one relationship to a
 * column of the related model: a typo in a rule would otherwise fail closed
 * on every request, silently. Rule functions and scope functions are the
 * application's code, checked when they run.
 */
export function checkRules(checked: CheckedResource, describe: (resource: ResourceClass) => CheckedResource, problems: ProblemList): void {
  checked.resource.config.rules.forEach((definition, index) => {
    if (typeof definition.rule === 'function' || isScopeRule(definition.rule)) return;
    const subject: ProblemSubject = { resource: checked.resource, member: `allow('${definition.action}')`, sites: [`allow:${definition.action}:${index}`], declaration: definition };
    for (const key of keysOf(definition.rule as RowCondition)) {
      const problem = keyProblem(checked, key, describe);
      if (problem) problems.add(subject, problem);
    }
  });
}

function keysOf(condition: RowCondition, depth = 0): string[] {
  if (typeof condition === 'boolean' || depth > 16) return [];
  const combinator = combinatorOf(condition);
  if (combinator === 'not') return keysOf((condition as { not: RowCondition }).not, depth + 1);
  if (combinator) return ((condition as Record<string, RowCondition[]>)[combinator] ?? []).flatMap((part) => keysOf(part, depth + 1));
  return Object.keys(condition);
}

function keyProblem({ resource, model }: CheckedResource, key: string, describe: (resource: ResourceClass) => CheckedResource): string | undefined {
  const dot = key.indexOf('.');
  if (dot < 0) {
    if (!model || model.columns.includes(key)) return undefined;
    return `"${key}" is not a column of model ${model.name}${hint(key, model.columns)}`;
  }
  const name = key.slice(0, dot);
  const relationship = resource.config.relationships.get(name);
  if (!relationship) return `"${key}" names no relationship "${name}"${hint(name, resource.config.relationships.keys())}`;
  if (relationship.kind !== 'belongs_to' && relationship.kind !== 'has_one') return `"${key}" goes through ${relationship.kind} "${name}"; rules reach through belongs_to and has_one only`;
  const related = relatedResourceIfAny(relationship);
  // a relationship leading nowhere is reported by the relationship checks
  return related ? keyProblem(describe(related), key.slice(dot + 1), describe) : undefined;
}
