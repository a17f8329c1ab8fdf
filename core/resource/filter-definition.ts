import type { Guard } from './guard.ts';

/**
 * A custom operator: receives the scope and the coerced value (an array unless
 * the filter is single) and returns the narrowed scope.
 */
export type OperatorFunction = (scope: never, value: never, resource: never) => unknown;

export interface FilterOptions {
  /** Keeps only these of the type's default operators. */
  only?: string[];
  /** Drops these of the type's default operators. */
  except?: string[];
  allow?: unknown[];
  deny?: unknown[];
  /** Older name of `deny`. */
  reject?: unknown[];
  single?: boolean;
  required?: boolean;
  /** Filters that must be given together with this one. */
  dependent?: string[];
  allowNil?: boolean;
  /** Whether the filter may be used in this request. */
  guard?: Guard;
  description?: string;
}

/** What a `filter` declaration adds on top of its attribute. */
export interface FilterDeclaration {
  readonly name: string;
  readonly options: FilterOptions;
  readonly operators: Readonly<Record<string, OperatorFunction>>;
}
