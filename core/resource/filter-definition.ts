import type { BuiltInOperator } from '../adapter/adapter.ts';
import type { PlainGuard } from './guard.ts';

/**
 * A custom operator: receives the scope `S` and the coerced value `V` (an
 * array unless the filter is single) and returns the narrowed scope.
 */
export type OperatorFunction<S = never, V = never, I = never, Result = unknown> = (scope: S, value: V, resource: I) => Result;

/** Custom operators by name (`filter[name][<operator>]=…`), each returning the narrowed scope. */
export type FilterOperators<S = never, V = never, I = never> = Readonly<Record<string, OperatorFunction<S, V, I, S>>>;

/** A built-in operator's name, as `only` and `except` list them. */
export type FilterOperatorName = BuiltInOperator | `not_${BuiltInOperator}`;

/** `filter(name, type?, options)`; `I` is the declaring Resource. */
export interface FilterOptions<I = never> {
  /** Keeps only these of the type's default operators. */
  only?: readonly FilterOperatorName[];
  /** Drops these of the type's default operators. */
  except?: readonly FilterOperatorName[];
  allow?: readonly unknown[];
  deny?: readonly unknown[];
  /** Older name of `deny`. */
  reject?: readonly unknown[];
  single?: boolean;
  required?: boolean;
  /** Filters that must be given together with this one. */
  dependent?: readonly string[];
  allowNil?: boolean;
  /** Whether the filter may be used in this request. */
  guard?: PlainGuard<I>;
  description?: string;
}

/** What a `filter` declaration adds on top of its attribute. */
export interface FilterDeclaration {
  readonly name: string;
  readonly options: FilterOptions;
  readonly operators: Readonly<Record<string, OperatorFunction>>;
}
