/** Coerces one value; throws TypeCoercionError when it cannot. */
export type Coercion = (value: unknown) => unknown;

/**
 * One entry of the type registry. Each direction has its own coercion because
 * each meets different input: query strings (`params`), database values
 * (`read`) and JSON bodies (`write`).
 */
export interface TypeDefinition {
  params: Coercion;
  read: Coercion;
  write: Coercion;
  kind: 'scalar' | 'array' | 'record';
  canonical_name: string;
  description: string;
}
