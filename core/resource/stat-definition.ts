import type { BuiltInCalculation } from '../adapter/adapter.ts';

/** A custom calculation: receives the filtered, unpaginated scope `S` and the attribute name; may be async. */
export type CalculationFunction<S = never, I = never> = (scope: S, attribute: string, resource: I) => unknown;

export interface StatDefinition {
  readonly name: string;
  /** calculation name → built-in marker or custom function. */
  readonly calculations: ReadonlyMap<string, BuiltInCalculation | CalculationFunction>;
}
