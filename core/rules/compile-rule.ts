import type { BuiltInOperator, ConditionTree, FilterClause, RelatedLink } from '../adapter/adapter.ts';
import type { MuralContext } from '../context.ts';
import { ResourceConfigurationError } from '../errors/index.ts';
import { foreignKeyOf } from '../relationships/relationship-keys.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { relatedResource } from '../resource/resolve-resource.ts';
import { applyTree } from './apply-tree.ts';
import { combinatorOf, ContextValue, type RowCondition } from '../resource/row-rule.ts';

const TRUE: ConditionTree = { kind: 'constant', value: true };
const FALSE: ConditionTree = { kind: 'constant', value: false };

/** A context value the rule names but the request does not have: the whole rule then admits nothing. */
class MissingContext extends Error {}

/**
 * A rule's condition as the adapter's condition tree, for `resource`, with
 * the request's context values in place. Fails closed: if any context value
 * the condition names is missing, the tree is `false`, even under a `not`.
 */
export function compileCondition(resource: ResourceBase, condition: RowCondition, context: MuralContext | undefined): ConditionTree {
  try {
    return compile(resource, condition, context);
  } catch (error) {
    if (error instanceof MissingContext) return FALSE;
    throw error;
  }
}

function compile(resource: ResourceBase, condition: RowCondition, context: MuralContext | undefined): ConditionTree {
  if (typeof condition === 'boolean') return condition ? TRUE : FALSE;
  const combinator = combinatorOf(condition);
  if (combinator === 'not') return negate(compile(resource, (condition as { not: RowCondition }).not, context));
  if (combinator) {
    const parts = ((condition as Record<string, readonly RowCondition[]>)[combinator] ?? []).map((part) => compile(resource, part, context));
    return combinator === 'and' ? allOf(parts) : anyOf(parts);
  }
  return allOf(Object.entries(condition).map(([key, value]) => entry(resource, key, value, context)));
}

/** One `key: value` of a condition: a column, or a dotted path through a to-one relationship. */
function entry(resource: ResourceBase, key: string, value: unknown, context: MuralContext | undefined): ConditionTree {
  const dot = key.indexOf('.');
  if (dot < 0) return columnTree(resource, key, value, context);
  const name = key.slice(0, dot);
  const relationship = resource.resourceClass.config.relationships.get(name);
  const owner = resource.resourceClass.name;
  if (!relationship) throw new ResourceConfigurationError(`${owner}.allow: "${key}" names no relationship "${name}"`);
  if (relationship.kind !== 'belongs_to' && relationship.kind !== 'has_one') {
    throw new ResourceConfigurationError(`${owner}.allow: "${key}" goes through ${relationship.kind} "${name}"; rules reach through belongs_to and has_one only`);
  }
  const related = new (relatedResource(relationship))();
  // the related table as it is, not narrowed by its own rules: a rule says what it means, and rules cannot then loop
  const scope = applyTree(related, related.baseScope(), compile(related, { [key.slice(dot + 1)]: value } as RowCondition, context));
  const link: RelatedLink =
    relationship.kind === 'belongs_to'
      ? { parentKey: foreignKeyOf(relationship), relatedKey: relationship.primaryKey, scope }
      : { parentKey: relationship.primaryKey, relatedKey: foreignKeyOf(relationship), scope };
  return { kind: 'related', condition: { negated: false, links: [link] } };
}

const OPERATORS: Record<string, BuiltInOperator> = { eq: 'eq', gt: 'gt', gte: 'gte', lt: 'lt', lte: 'lte', prefix: 'prefix', suffix: 'suffix', match: 'match' };

function columnTree(resource: ResourceBase, column: string, value: unknown, context: MuralContext | undefined): ConditionTree {
  const isOperators = typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof ContextValue) && !(value instanceof Date);
  if (!isOperators) return clauseTree(resource, column, 'eq', false, value, context);
  return allOf(
    Object.entries(value).map(([name, operand]) => {
      const negated = name.startsWith('not_');
      return clauseTree(resource, column, OPERATORS[negated ? name.slice(4) : name]!, negated, operand, context);
    }),
  );
}

function clauseTree(resource: ResourceBase, column: string, operator: BuiltInOperator, negated: boolean, operand: unknown, context: MuralContext | undefined): ConditionTree {
  const resolved = operand instanceof ContextValue ? contextValue(operand, context) : operand;
  const values = Array.isArray(resolved) ? resolved : [resolved];
  // a list of none: nothing equals one of no values (and every row differs from all of them)
  if (values.length === 0) return negated ? TRUE : FALSE;
  const clause: FilterClause = { column, operator, negated, values, caseInsensitive: false, typeName: typeNameOf(resource, column, values) };
  return { kind: 'clause', clause };
}

/** The attribute's declared type, else one guessed from the values: only text comparisons differ by type (MySQL's collations). */
function typeNameOf(resource: ResourceBase, column: string, values: readonly unknown[]): string {
  const declared = resource.resourceClass.config.attributes.get(column);
  if (declared) return declared.type;
  return values.some((value) => typeof value === 'string') ? 'string' : 'integer';
}

/** Own properties only, along the dotted path: a context never answers from a prototype. */
function contextValue(value: ContextValue, context: MuralContext | undefined): unknown {
  let current: unknown = context;
  for (const part of value.path.split('.')) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, part)) throw new MissingContext();
    current = (current as Record<string, unknown>)[part];
  }
  const usable = (item: unknown) => item === null || ['string', 'number', 'bigint', 'boolean'].includes(typeof item) || item instanceof Date;
  if (Array.isArray(current) ? !current.every(usable) : !usable(current)) throw new MissingContext();
  return current;
}

function negate(tree: ConditionTree): ConditionTree {
  if (tree.kind === 'constant') return tree.value ? FALSE : TRUE;
  if (tree.kind === 'not') return tree.condition;
  return { kind: 'not', condition: tree };
}

function allOf(parts: readonly ConditionTree[]): ConditionTree {
  if (parts.some((part) => part.kind === 'constant' && !part.value)) return FALSE;
  const kept = parts.filter((part) => part.kind !== 'constant');
  if (kept.length === 0) return TRUE;
  return kept.length === 1 ? kept[0]! : { kind: 'and', conditions: kept };
}

function anyOf(parts: readonly ConditionTree[]): ConditionTree {
  if (parts.some((part) => part.kind === 'constant' && part.value)) return TRUE;
  const kept = parts.filter((part) => part.kind !== 'constant');
  if (kept.length === 0) return FALSE;
  return kept.length === 1 ? kept[0]! : { kind: 'or', conditions: kept };
}

