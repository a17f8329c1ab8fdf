/** Coerces one value; throws TypeCoercionError when it cannot. */
export type Coercion = (value: unknown) => unknown;

/**
 * One entry of the type registry. Each direction has its own coercion because
 * each meets different input: filter values from query strings or in-process
 * queries (`params`), values read from a model or database row (`read`), and
 * JSON body values about to be assigned to a model (`write`).
 */
export interface TypeDefinition {
  /** Filter value → the canonical value the query uses. */
  params: Coercion;
  /** Model or row value → the JSON value rendered. */
  read: Coercion;
  /** JSON body value → the value assigned to the model. */
  write: Coercion;
  kind: 'scalar' | 'array' | 'record';
  /** The type's own registry name, `array_of_integers` included. */
  canonical_name: string;
  /** One sentence for humans; exported into schema.json. */
  description: string;
}
