export type SortDirection = 'asc' | 'desc';

/** Orders the scope by a custom rule. */
export type SortFunction = (scope: never, direction: SortDirection, resource: never) => unknown;

export interface SortOptions {
  /** Restricts the sort to one direction. */
  only?: SortDirection;
}

export interface SortDeclaration {
  readonly name: string;
  readonly options: SortOptions;
  readonly block?: SortFunction;
}
