import type { SortDirection } from '../adapter/adapter.ts';

/** Orders the scope `S` by a custom rule and returns it. */
export type SortFunction<S = never, I = never, Result = unknown> = (scope: S, direction: SortDirection, resource: I) => Result;

/** Options of `sort(name, type, options, block)`. */
export interface SortOptions {
  /** Restricts the sort to one direction. */
  only?: SortDirection;
}

export interface SortDeclaration {
  readonly name: string;
  readonly options: SortOptions;
  readonly block?: SortFunction;
}
