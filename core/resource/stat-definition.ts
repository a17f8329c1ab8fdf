/** A custom calculation: receives the filtered, unpaginated scope and the attribute name. */
export type CalculationFunction = (scope: never, attribute: string, resource: never) => unknown;

/** The calculations every adapter provides. */
export const BUILT_IN_CALCULATIONS = ['count', 'sum', 'average', 'maximum', 'minimum'] as const;
export type BuiltInCalculation = (typeof BUILT_IN_CALCULATIONS)[number];

export interface StatDefinition {
  readonly name: string;
  /** calculation name → built-in marker or custom function. */
  readonly calculations: ReadonlyMap<string, BuiltInCalculation | CalculationFunction>;
}
