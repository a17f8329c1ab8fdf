import type { ResourceBase } from '../resource/resource-base.ts';
import type { FilterCondition } from '../query/query-plan.ts';

/** Narrows the scope by each condition in turn; several conditions are ANDed. */
export function applyFilters(resource: ResourceBase, scope: unknown, conditions: readonly FilterCondition[]): unknown {
  let current = scope;
  for (const condition of conditions) {
    const implementation = condition.filter.operators.get(condition.operator)!;
    if (implementation.kind === 'custom') {
      // a copy: the plan, values included, may serve other requests (plan-cache.ts)
      const value = condition.filter.single ? condition.values[0] : [...condition.values];
      current = implementation.fn(current as never, value as never, resource as never);
      continue;
    }
    const { operator, negated } = implementation;
    current = resource.adapter.filter(current, {
      column: condition.filter.name,
      operator,
      negated,
      values: condition.values,
      caseInsensitive: operator === 'eq' ? condition.filter.caseInsensitiveEq : operator !== 'eql' && isPattern(operator),
      typeName: condition.filter.typeName,
    });
  }
  return current;
}

function isPattern(operator: string): boolean {
  return operator === 'prefix' || operator === 'suffix' || operator === 'match';
}
