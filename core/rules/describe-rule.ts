import { combinatorOf, ContextValue, isScopeRule, type RowCondition, type RowRule } from '../resource/row-rule.ts';

const SYMBOLS: Record<string, string> = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=', prefix: 'starts with', suffix: 'ends with', match: 'contains' };

/**
 * A rule as one line of text, for `schema.json`, `mural guards` and the
 * OpenAPI document: `company_id = context.user.companyId`,
 * `(employee.company_id = context.user.companyId or public = true)`. A rule
 * function or scope function shows as such: what it decides is code.
 */
export function describeRule(rule: RowRule<unknown, never>): string {
  if (isScopeRule(rule)) return 'a scope function';
  if (typeof rule === 'function') return rule.name && rule.name !== 'rule' ? `${rule.name}(context)` : 'a function of the context';
  return describe(rule, true);
}

function describe(condition: RowCondition, top: boolean): string {
  if (typeof condition === 'boolean') return condition ? 'every record' : 'no record';
  const combinator = combinatorOf(condition);
  if (combinator === 'not') return `not (${describe((condition as { not: RowCondition }).not, true)})`;
  const parts = combinator
    ? ((condition as Record<string, RowCondition[]>)[combinator] ?? []).map((part) => describe(part, false))
    : Object.entries(condition).map(([column, value]) => entry(column, value));
  const joined = parts.join(` ${combinator === 'or' ? 'or' : 'and'} `);
  return parts.length > 1 && !top ? `(${joined})` : joined;
}

function entry(column: string, value: unknown): string {
  if (Array.isArray(value)) return `${column} in [${value.map(valueText).join(', ')}]`;
  if (typeof value === 'object' && value !== null && !(value instanceof ContextValue) && !(value instanceof Date)) {
    return Object.entries(value)
      .map(([name, operand]) => {
        const negated = name.startsWith('not_');
        const symbol = SYMBOLS[negated ? name.slice(4) : name] ?? name;
        const list = Array.isArray(operand);
        const text = `${column} ${list && symbol === '=' ? 'in' : symbol} ${list ? `[${(operand as unknown[]).map(valueText).join(', ')}]` : valueText(operand)}`;
        return negated ? `not (${text})` : text;
      })
      .join(' and ');
  }
  return value === null ? `${column} is null` : `${column} = ${valueText(value)}`;
}

function valueText(value: unknown): string {
  if (value instanceof ContextValue) return `context.${value.path}`;
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'bigint' ? value.toString() : JSON.stringify(value);
}
