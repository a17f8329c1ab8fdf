import { TypeCoercionError } from '../errors/index.ts';
import { toArray } from './json-coercions.ts';
import type { Coercion, TypeDefinition } from './type-definition.ts';

/** Every type with an `array_of_<plural>` variant, and that plural. boolean, hash and array have none. */
export const ARRAY_OF_PLURALS: Readonly<Record<string, string>> = {
  string: 'strings',
  integer: 'integers',
  integer_id: 'integer_ids',
  uuid: 'uuids',
  string_enum: 'string_enums',
  integer_enum: 'integer_enums',
  big_decimal: 'big_decimals',
  float: 'floats',
  date: 'dates',
  datetime: 'datetimes',
};

type Direction = 'params' | 'read' | 'write';

/**
 * Each element goes through the element type's coercion, looked up at call
 * time: replacing `Types.integer.read` (or the whole entry) also changes how
 * `array_of_integers` renders.
 */
function eachElement(name: string, direction: Direction, element: () => TypeDefinition, asList: Coercion): Coercion {
  return (value) => {
    const list = asList(value) as unknown[] | null;
    if (list === null) return null;
    const coerce = element()[direction];
    try {
      return list.map((item) => coerce(item));
    } catch (error) {
      // Report the whole value against the array type: the client sent that, and it names the attribute's declared type.
      if (error instanceof TypeCoercionError) throw new TypeCoercionError(name, value);
      throw error;
    }
  };
}

/**
 * `array_of_<plural>`: params wrap a single filter value, read also parses
 * JSON text (SQLite and MySQL return array columns that way), write requires
 * a JSON array.
 */
export function arrayOf(elementName: string, resolve: (name: string) => TypeDefinition): TypeDefinition {
  const plural = ARRAY_OF_PLURALS[elementName];
  if (plural === undefined) throw new Error(`${elementName} has no array_of variant`);
  const name = `array_of_${plural}`;
  const element = () => resolve(elementName);
  return {
    params: eachElement(name, 'params', element, toArray(name, false, true)),
    read: eachElement(name, 'read', element, toArray(name, true, false)),
    write: eachElement(name, 'write', element, toArray(name, false, false)),
    kind: 'array',
    canonical_name: name,
    description: `An array of ${plural.replace(/_/g, ' ')}, each coerced as ${elementName}.`,
  };
}
