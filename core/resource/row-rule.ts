import type { MuralContext } from '../context.ts';
import { ResourceConfigurationError } from '../errors/index.ts';

/**
 * What a row rule governs: `read` narrows every read of the Resource's
 * records; `create`, `update` and `destroy` the records a write may leave or
 * touch; `link` the records a write may point a relationship at.
 */
export type RuleAction = 'read' | 'create' | 'update' | 'destroy' | 'link';

export const RULE_ACTIONS: readonly RuleAction[] = ['read', 'create', 'update', 'destroy', 'link'];

/** A value a rule compares with: a scalar, or a request's context value (`fromContext`). */
export type RuleScalar = string | number | boolean | bigint | Date | null;

/** `fromContext('user.companyId')`: a value read from the request context when the rule is applied. */
export class ContextValue {
  constructor(readonly path: string) {}
}

/**
 * A value of the request context, by a dotted path of own properties
 * (`'user.companyId'`), read when the rule is applied. A path that finds
 * nothing (no context, a missing key, undefined) matches no row: a rule fails
 * closed.
 */
export function fromContext(path: string): ContextValue {
  if (typeof path !== 'string' || path === '' || path.split('.').some((part) => part === '')) {
    throw new ResourceConfigurationError(`fromContext(${JSON.stringify(path)}): give a dotted path such as 'user.companyId'`);
  }
  return new ContextValue(path);
}

/** The operators a rule may apply to a column, as filters name them; each also has a `not_` form. */
export const RULE_OPERATORS = ['eq', 'gt', 'gte', 'lt', 'lte', 'prefix', 'suffix', 'match'] as const;
export type RuleOperator = (typeof RULE_OPERATORS)[number];

type OneOrMany = RuleScalar | ContextValue | readonly RuleScalar[];

/** `{ gte: 18 }`, `{ not_eq: fromContext('user.id') }`: operators on one column, ANDed. */
export type RuleOperators = { readonly [K in RuleOperator | `not_${RuleOperator}`]?: OneOrMany };

/**
 * A rule's condition, as data:
 *
 * - `true` (every row) or `false` (none);
 * - `{ column: value, 'relationship.column': value, … }`, every entry
 *   holding: a value, a list (any of), `null`, `fromContext(path)`, or
 *   operators (`{ gte: 18 }`); a dotted key reaches through to-one
 *   relationships;
 * - `{ or: [...] }`, `{ and: [...] }`, `{ not: condition }`.
 */
export type RowCondition =
  | boolean
  | { readonly or: readonly RowCondition[] }
  | { readonly and: readonly RowCondition[] }
  | { readonly not: RowCondition }
  | { readonly [column: string]: OneOrMany | RuleOperators };

/**
 * Custom SQL for what a condition cannot say: narrows the adapter's scope
 * (a `SequelizeScope`), given the request context. It cannot sit under
 * `or` or `not`, nor be listed by `mural guards` beyond its name.
 */
export interface ScopeRule<S = never, C extends object = MuralContext> {
  readonly scope: (scope: S, context: C) => S;
}

/**
 * A rule: a condition, a function of the request context returning one, or
 * a scope function. `C` is the context your app builds: a function typed
 * `(ctx: AppContext) => …` is taken as it is.
 */
export type RowRule<S = never, C extends object = MuralContext> = RowCondition | ((context: C) => RowCondition) | ScopeRule<S, C>;

/** One `allow(action, rule)` of a Resource. */
export interface RowRuleDefinition {
  readonly action: RuleAction;
  readonly rule: RowRule<unknown, never>;
  /** The class that declared it, for messages and `mural guards`. */
  readonly owner: string;
}

export function isScopeRule(rule: unknown): rule is ScopeRule<unknown, never> {
  return typeof rule === 'object' && rule !== null && !Array.isArray(rule) && Object.keys(rule).length === 1 && typeof (rule as { scope?: unknown }).scope === 'function';
}

/** The part of a Resource's config this file writes (resource-config.ts holds the whole). */
interface RuledConfig {
  readonly rules: RowRuleDefinition[];
}

/**
 * Records `allow(action, rule)`. Every rule of an action must hold, a
 * parent's included, so a subclass can narrow what its parent allows but
 * never widen it.
 */
export function declareRowRule(config: RuledConfig, className: string, action: RuleAction, rule: RowRule<unknown, never>): void {
  const owner = `${className}.allow`;
  if (!RULE_ACTIONS.includes(action)) throw new ResourceConfigurationError(`${owner}: unknown action "${String(action)}"; rules cover ${RULE_ACTIONS.join(', ')}`);
  if (typeof rule !== 'function' && !isScopeRule(rule)) checkCondition(rule, `${owner}('${action}')`);
  config.rules.push({ action, rule, owner: className });
}

/** The rules of `action`, in declaration order. */
export function rulesOf(resourceClass: { readonly config: RuledConfig }, action: RuleAction): RowRuleDefinition[] {
  return resourceClass.config.rules.filter((definition) => definition.action === action);
}

/** Whether a condition or a part of one is a combinator (`or`, `and`, `not`) rather than columns. */
export function combinatorOf(condition: object): 'or' | 'and' | 'not' | undefined {
  const keys = Object.keys(condition);
  if (keys.length !== 1) return undefined;
  const key = keys[0];
  return key === 'or' || key === 'and' || key === 'not' ? key : undefined;
}

const MAX_DEPTH = 16;

/**
 * Throws a ResourceConfigurationError naming the part of a condition that is
 * not one, so a typo fails when the Resource is declared rather than on a request.
 * Column names are checked against the Resource later, by `checkResources`.
 */
export function checkCondition(condition: unknown, where: string, depth = 0): void {
  if (depth > MAX_DEPTH) throw new ResourceConfigurationError(`${where}: conditions nest more than ${MAX_DEPTH} deep`);
  if (typeof condition === 'boolean') return;
  if (typeof condition !== 'object' || condition === null || Array.isArray(condition)) {
    throw new ResourceConfigurationError(`${where}: a condition is true, false or an object, not ${JSON.stringify(condition) ?? typeof condition}`);
  }
  if (isScopeRule(condition)) throw new ResourceConfigurationError(`${where}: a scope function is a rule of its own, not part of a condition`);
  const combinator = combinatorOf(condition);
  if (combinator === 'not') return checkCondition((condition as { not: unknown }).not, `${where}.not`, depth + 1);
  if (combinator) {
    const parts = (condition as Record<string, unknown>)[combinator];
    if (!Array.isArray(parts)) throw new ResourceConfigurationError(`${where}.${combinator}: give a list of conditions`);
    parts.forEach((part, index) => checkCondition(part, `${where}.${combinator}[${index}]`, depth + 1));
    return;
  }
  for (const [column, value] of Object.entries(condition)) checkValue(value, `${where}['${column}']`);
}

function checkValue(value: unknown, where: string): void {
  if (value instanceof ContextValue || isScalar(value)) return;
  if (Array.isArray(value)) {
    if (!value.every(isScalar)) throw new ResourceConfigurationError(`${where}: a list holds values only`);
    return;
  }
  if (typeof value !== 'object' || value === null) throw new ResourceConfigurationError(`${where}: ${typeof value} is not a value a rule compares with`);
  const names: string[] = [...RULE_OPERATORS, ...RULE_OPERATORS.map((operator) => `not_${operator}`)];
  for (const [operator, operand] of Object.entries(value)) {
    if (!names.includes(operator)) throw new ResourceConfigurationError(`${where}: unknown operator "${operator}"; operators: ${names.join(', ')}`);
    checkValue(operand, `${where}.${operator}`);
    if (typeof operand === 'object' && operand !== null && !Array.isArray(operand) && !(operand instanceof ContextValue) && !(operand instanceof Date)) {
      throw new ResourceConfigurationError(`${where}.${operator}: operators take values, not operators`);
    }
  }
}

function isScalar(value: unknown): boolean {
  return value === null || value instanceof Date || ['string', 'number', 'boolean', 'bigint'].includes(typeof value);
}
